// Card codes of RULES.md and VARIANTS.md as words and colours, for the eye and for a
// screen reader. Presentation only: the names and signs of the table's cards come from
// the host's hello (the rule set's), and which card may be played from the view's `legal`.

const COLOURS = { R: "red", Y: "yellow", G: "green", B: "blue" };
// For colour-blind mode: each colour also has a shape (its letter is in the code corner).
const MARKS = { red: "■", yellow: "▲", green: "●", blue: "◆" };
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
  const mark = document.createElement("span");
  mark.className = "mark";
  mark.setAttribute("aria-hidden", "true");
  mark.textContent = info.colour ? MARKS[info.colour] : "✱";
  el.append(corner, sign, label, mark);
  return el;
}

/** Card codes sorted as a hand is held: by colour (red, yellow, green, blue, then wilds),
 * and within a colour by the rule set's order of symbols (the hello's `cards`). */
export function sortCodes(codes) {
  const order = Object.keys(kinds);
  const colourRank = (c) => {
    const i = Object.values(COLOURS).indexOf(c.colour);
    return i < 0 ? 4 : i;
  };
  const key = (code) => {
    const info = describe(code);
    const rank = order.indexOf(info.symbol);
    return [colourRank(info), rank < 0 ? order.length : rank, code];
  };
  return [...codes].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0] - y[0] || x[1] - y[1] || (x[2] < y[2] ? -1 : x[2] > y[2] ? 1 : 0);
  });
}

export const COLOUR_NAMES = Object.values(COLOURS);
