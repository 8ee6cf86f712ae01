// Card codes of RULES.md and VARIANTS.md as words and colours, for the eye and for a
// screen reader. Presentation only: which card may be played comes from the view's `legal`.

const COLOURS = { R: "red", Y: "yellow", G: "green", B: "blue" };
const SYMBOLS = {
  S: "Skip", R: "Reverse", H: "Hit 2", D: "Discard All", T: "Trade Hands",
  "+2": "Draw Two", W: "Wild", WA: "Wild All Hit", WF: "Wild Hit-Fire", "W+4": "Wild Draw Four",
};
const SHORT = { S: "⊘", R: "⇄", H: "+2", D: "✱", T: "⇆", "+2": "+2", WA: "All", WF: "Fire",
  "W+4": "+4", W: "W" };

/** {colour, symbol, label, short} of a card code such as "R5", "YH" or "WA". */
export function describe(code) {
  const colour = COLOURS[code[0]] && !code.startsWith("W") ? COLOURS[code[0]] : null;
  const symbol = colour ? code.slice(1) : code;
  const name = SYMBOLS[symbol] ?? symbol;
  return {
    colour,
    symbol,
    label: colour ? `${colour} ${name}` : name,
    short: SHORT[symbol] ?? symbol,
  };
}

/** A card face as an element: the code, a big sign and the name, coloured. */
export function cardFace(code, tag = "div") {
  const info = describe(code);
  const el = document.createElement(tag);
  el.className = `card c-${info.colour ?? "wild"}`;
  const corner = document.createElement("span");
  corner.className = "code";
  corner.textContent = code;
  const sign = document.createElement("span");
  sign.className = "sign";
  sign.textContent = info.short;
  const label = document.createElement("span");
  label.className = "label";
  label.textContent = info.label;
  el.append(corner, sign, label);
  return el;
}

export const COLOUR_NAMES = Object.values(COLOURS);
