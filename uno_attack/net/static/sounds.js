// The page's sounds, made in the browser with Web Audio (no files to download): the
// launcher's whir, a burst of cards, a card played, UNO, your turn. A mute switch, kept in
// localStorage, silences them; vibration (where the phone offers it) is separate.

const MUTE_KEY = "uno-attack.muted";
let context = null;

export function muted() {
  return localStorage.getItem(MUTE_KEY) === "1";
}

export function setMuted(on) {
  localStorage.setItem(MUTE_KEY, on ? "1" : "0");
}

/** The page's one AudioContext, made at the first sound and woken if the browser paused it. */
function audio() {
  if (context === null) {
    const Context = window.AudioContext ?? window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** One tone from `at` seconds on: its wave, pitch (gliding to `to`), length and loudness. */
function tone(c, { at = 0, wave = "sine", from, to = from, length, loud = 0.2 }) {
  const start = c.currentTime + at;
  const osc = c.createOscillator();
  const gain = c.createGain();
  osc.type = wave;
  osc.frequency.setValueAtTime(from, start);
  osc.frequency.exponentialRampToValueAtTime(to, start + length);
  gain.gain.setValueAtTime(loud, start);
  gain.gain.exponentialRampToValueAtTime(0.001, start + length);
  osc.connect(gain).connect(c.destination);
  osc.start(start);
  osc.stop(start + length);
}

const SOUNDS = {
  // the motor spinning up: a saw rising
  whir: (c) => tone(c, { wave: "sawtooth", from: 70, to: 420, length: 0.9, loud: 0.08 }),
  // cards flung out: quick falling squares
  burst: (c) => [0, 0.07, 0.14, 0.21].forEach((at) =>
    tone(c, { at, wave: "square", from: 900, to: 200, length: 0.08, loud: 0.1 })),
  // a card laid down: a short tap
  card: (c) => tone(c, { wave: "triangle", from: 320, to: 180, length: 0.09, loud: 0.25 }),
  // UNO called: two bright notes
  uno: (c) => [[0, 660], [0.12, 990]].forEach(([at, from]) =>
    tone(c, { at, wave: "square", from, length: 0.12, loud: 0.12 })),
  // your turn: a rising chime
  turn: (c) => [[0, 523], [0.15, 659], [0.3, 784]].forEach(([at, from]) =>
    tone(c, { at, from, length: 0.3, loud: 0.25 })),
};

/** Play a sound by name, unless muted; returns whether it played. */
export function play(name) {
  if (muted()) return false;
  const c = audio();
  if (c === null) return false;
  SOUNDS[name](c);
  return true;
}

/** Buzz the phone, where it can. */
export function vibrate(pattern) {
  if (typeof navigator.vibrate === "function") navigator.vibrate(pattern);
}
