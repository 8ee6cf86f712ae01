// Card codes of RULES.md and VARIANTS.md as words and colours, for the eye and for a
// screen reader. Presentation only: the names and signs of the table's cards come from
// the host's hello (the rule set's), and which card may be played from the view's `legal`.

const COLOURS = { R: "red", Y: "yellow", G: "green", B: "blue" };
let kinds = {};

/** The table's card kinds by symbol ({name, short, sign, effect}), from the hello. */
export function useKinds(cards) {
  kinds = cards ?? {};
}

/** {colour, symbol, label, short} of a card code such as "R5", "YH" or "WA". */
export function describe(code) {
  const colour = COLOURS[code[0]] && !code.startsWith("W") ? COLOURS[code[0]] : null;
  const symbol = colour ? code.slice(1) : code;
  const kind = kinds[symbol];
  const name = kind?.name ?? symbol;
  return {
    colour,
    symbol,
    label: colour ? `${colour} ${name}` : name,
    short: kind?.sign || symbol,
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
