// The table page: draws the host's `view` messages and sends the taps as `act`s.
// No rule lives here: what may be played, pressed, called or caught is the view's `legal`.

import { cardFace, describe, sortCodes, useKinds } from "./cards.js";
import { Connection } from "./connection.js";
import { muted, play, setMuted, vibrate } from "./sounds.js";

const $ = (id) => document.getElementById(id);
const token = new URLSearchParams(location.search).get("token") ?? "";

const COLOURBLIND_KEY = "uno-attack.colourblind";
const state = { hello: null, view: null, calling: false, unoArmed: false, picker: null, deadlineAt: null,
  nextRoundAt: null, lobbyAt: null };

function button(text, action, extra = {}) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  if (action) {
    b.dataset.action = action;
    b.addEventListener("click", () => send(action));
  }
  Object.assign(b, extra);
  return b;
}

function send(action) {
  closePicker();
  if (!connection.act(action)) toast("Not connected: the tap was not sent");
}

function nameOf(seat) {
  if (state.hello && seat === state.hello.seat) return "You";
  return state.hello?.players?.[seat] ?? `seat ${seat}`;
}

function legal() {
  return state.view?.legal ?? [];
}

// -- drawing ----------------------------------------------------------------------------
function render() {
  const v = state.view;
  const hello = state.hello;
  if (!v || !hello) return;
  const mine = hello.seat;
  $("me").textContent = hello.seat === null ? "Watching" : `${hello.name} · seat ${mine}`;
  $("round").textContent = `Round ${v.round ?? 1}`;
  drawLobby(v);
  drawPlayers(v, mine);
  const top = cardFace(v.top);
  top.id = "top";
  top.classList.add("big");
  top.setAttribute("aria-label", `Top card: ${describe(v.top).label}`);
  $("top").replaceWith(top);
  $("color").textContent = v.color ? `Colour: ${v.color}` : "Colour: not named yet";
  $("color").className = `color-name t-${v.color ?? "none"}`;
  $("direction").textContent =
    v.direction === "clockwise" ? "↻ clockwise" : "↺ counter-clockwise";
  $("status").textContent = statusText(v, mine);
  drawOwed(v);
  drawLauncher(v);
  drawActions(v, mine);
  drawHand(v);
  const log = $("log");
  log.replaceChildren(...v.log.map((line) => {
    const li = document.createElement("li");
    li.textContent = line;
    return li;
  }));
  log.scrollTop = log.scrollHeight;
  drawPrompt(v);
  drawScores(v);
  state.deadlineAt = v.deadline == null ? null : Date.now() + v.deadline * 1000;
  tick();
}

// The seats filling before the deal (the view's `lobby`, added by this host): who is here.
function drawLobby(v) {
  const open = Boolean(v.lobby);
  document.body.dataset.phase = open ? "lobby" : "play";
  $("lobby").hidden = !open;
  $("table").hidden = open;
  if (!open) {
    state.lobbyAt = null;
    return;
  }
  const people = state.hello.people ?? [];
  const here = v.connected ?? [];
  $("lobby-seats").replaceChildren(...state.hello.players.map((name, seat) => {
    const li = document.createElement("li");
    const person = people.includes(seat);
    const joined = here.includes(seat);
    li.className = person ? (joined ? "here" : "waited") : "bot";
    li.dataset.seat = String(seat);
    const who = seat === state.hello.seat ? `${name} (you)` : name;
    li.textContent = `${who} — ${person ? (joined ? "here" : "not here yet") : "a bot"}`;
    return li;
  }));
  state.lobbyAt = v.lobby.starts_in == null ? null : Date.now() + v.lobby.starts_in * 1000;
  lobbyWhen();
}

function lobbyWhen() {
  const missing = (state.hello.people ?? []).filter((s) => !(state.view.connected ?? []).includes(s));
  let text = `The round starts when ${missing.length === 1 ? "one more person joins"
    : `${missing.length} more people join`}, or when the host starts it`;
  if (state.lobbyAt != null) {
    text += ` (in ${Math.max(0, Math.ceil((state.lobbyAt - Date.now()) / 1000))} s at the latest)`;
  }
  $("lobby-when").textContent = `${text}.`;
}

function statusText(v, mine) {
  if (v.turn === null) return v.winner === null ? "" : `${nameOf(v.winner)} went out!`;
  if (v.busy !== null && v.busy !== undefined) return `The launcher fires for ${nameOf(v.busy)}…`;
  if (v.prompt) return "The launcher needs an answer.";
  if (v.turn === mine) return legal().some((a) => a.startsWith("choose"))
    ? "Your turn: name the colour of the wild starter" : "Your turn";
  const away = (v.away ?? []).includes(v.turn) ? " (away: a bot plays)" : "";
  const waited = (state.hello?.people ?? []).includes(v.turn) && !away
    && !(v.connected ?? []).includes(v.turn) ? " (not connected: waiting for them)" : "";
  return `${nameOf(v.turn)}'s turn${away}${waited}`;
}

function drawPlayers(v, mine) {
  const items = v.hand_sizes.map((count, seat) => {
    const li = document.createElement("li");
    li.className = "player";
    if (seat === v.turn) li.classList.add("turn");
    if (seat === mine) li.classList.add("mine");
    const catchIt = `catch ${seat}`;
    const canCatch = legal().includes(catchIt);
    const el = canCatch ? button("", catchIt) : document.createElement("div");
    if (!canCatch) el.setAttribute("role", "group"); // so its label is read out
    el.className = "player-box";
    const parts = [];
    const name = document.createElement("span");
    name.className = "pname";
    name.textContent = (seat === v.turn ? "▶ " : "") + (state.hello.players[seat] ?? `seat ${seat}`);
    const cards = document.createElement("span");
    cards.className = "pcards";
    cards.textContent = `${count} card${count === 1 ? "" : "s"}`;
    const score = document.createElement("span");
    score.className = "pscore";
    score.textContent = `${v.scores[seat]} pts`;
    parts.push(name, cards, score);
    const badges = [];
    if (count === 1 && v.uno_window !== seat) badges.push(["uno", "UNO"]);
    if (v.uno_window === seat) badges.push(["forgot", "no UNO call!"]);
    if ((v.away ?? []).includes(seat)) badges.push(["away", "away"]);
    if ((v.connected ?? []).includes(seat)) badges.push(["online", "●"]);
    for (const [kind, text] of badges) {
      const b = document.createElement("span");
      b.className = `badge ${kind}`;
      b.textContent = text;
      parts.push(b);
    }
    el.append(...parts);
    const label = [`${state.hello.players[seat]}`, `${count} cards`, `${v.scores[seat]} points`,
      ...badges.filter(([k]) => k !== "online").map(([, t]) => t)];
    if (seat === v.turn) label.push("to act");
    if (canCatch) label.unshift("Catch");
    el.setAttribute("aria-label", label.join(", "));
    if (canCatch) el.classList.add("catchable");
    li.append(el);
    return li;
  });
  $("players").replaceChildren(...items);
}

function drawOwed(v) {
  const why = v.owed_why ?? [];
  const lines = v.owed.map(([seat, n], i) => {
    const div = document.createElement("div");
    const what = n === "fire" ? "until a card fires" : `${n}×`;
    const verb = seat === state.hello.seat ? "You must press" : `${nameOf(seat)} must press`;
    div.textContent = `${verb} ${what}${why[i] ? ` — ${why[i]}` : ""}`;
    return div;
  });
  if (v.revealed) { // a challenged Wild Draw Four: the hand is shown to the challenger
    const div = document.createElement("div");
    div.className = "revealed";
    div.textContent = `${nameOf(v.revealed.seat)} held: ${v.revealed.hand.join(" ")}`;
    lines.push(div);
  }
  $("owed").replaceChildren(...lines);
}

function drawLauncher(v) {
  const b = $("launcher");
  const take = legal().includes("draw") ? "draw" : "press"; // classic: the draw pile
  const can = legal().includes(take);
  b.disabled = !can;
  b.dataset.action = take;
  b.querySelector(".launcher-word").textContent = take.toUpperCase();
  b.classList.toggle("firing", v.busy !== null && v.busy !== undefined);
  const tension = Math.min(v.tension ?? 0, 5);
  b.dataset.tension = String(tension);
  $("tension").textContent = "●".repeat(tension) + "○".repeat(Math.max(0, 3 - tension));
  const what = take === "draw" ? "Draw a card" : "Press the launcher";
  b.setAttribute("aria-label", `${what}${can ? "" : " (not now)"}, ` +
    `tension ${v.tension ?? 0}: ${v.tension ?? 0} empty presses in a row`);
}

function drawActions(v, mine) {
  const out = [];
  const acts = legal();
  if (acts.includes("uno")) out.push(button("UNO!", "uno", { className: "uno" }));
  for (const a of acts.filter((x) => x.startsWith("catch "))) {
    const seat = Number(a.split(" ")[1]);
    out.push(button(`Catch ${nameOf(seat)}!`, a, { className: "catch" }));
  }
  const choose = acts.filter((x) => x.startsWith("choose "));
  for (const a of choose) {
    const colour = a.split(" ")[1];
    out.push(button(`Name ${colour}`, a, { className: `colour t-${colour}` }));
  }
  if (acts.includes("pass")) out.push(button("Pass", "pass", { className: "pass" }));
  const known = /^(play|press|draw|uno$|catch|choose|pass$|retry$|fired )/;
  for (const a of acts.filter((x) => !known.test(x))) { // challenge, out, what comes next
    out.push(button(a[0].toUpperCase() + a.slice(1), a, { className: "other" }));
  }
  const plays = acts.filter((x) => x.startsWith("play "));
  if (mine !== null && v.hand?.length === 2 && plays.length) {
    const t = button(state.unoArmed ? "UNO with my play: on" : "Call UNO with my play", null,
      { className: `uno-toggle${state.unoArmed ? " armed" : ""}` });
    t.setAttribute("aria-pressed", String(state.unoArmed));
    t.addEventListener("click", () => { state.unoArmed = !state.unoArmed; render(); });
    out.push(t);
  } else {
    state.unoArmed = false;
  }
  $("actions").replaceChildren(...out);
}

function drawHand(v) {
  const hand = sortCodes(v.hand ?? []);
  const plays = legal().filter((a) => a.startsWith("play "));
  const cards = hand.map((code, i) => {
    const ways = plays.filter((a) => a.split(" ")[1] === code);
    const el = cardFace(code, "button");
    el.type = "button";
    el.dataset.code = code;
    el.dataset.index = String(i);
    const label = describe(code).label;
    if (ways.length) {
      el.classList.add("playable");
      el.dataset.playable = "true";
      el.setAttribute("aria-label", `${label}, playable`);
      el.addEventListener("click", () => playCard(code, ways));
    } else {
      el.disabled = true;
      el.setAttribute("aria-label", `${label}, cannot be played now`);
    }
    return el;
  });
  $("hand").replaceChildren(...cards);
  $("hand").hidden = state.hello.seat === null;
  $("hand").classList.toggle("many", hand.length > 12); // smaller cards, scrolling
  $("hand").setAttribute("aria-label", `Your cards (${hand.length}), by colour`);
}

function playCard(code, ways) {
  const withUno = (a) => (state.unoArmed ? `${a} uno` : a);
  if (ways.length === 1) {
    send(withUno(ways[0]));
    state.unoArmed = false;
    return;
  }
  const info = describe(code);
  const choices = ways.map((a) => {
    const arg = a.split(" ")[2];
    const isSeat = /^\d+$/.test(arg);
    const text = isSeat ? `${nameOf(Number(arg))} (${state.view.hand_sizes[Number(arg)]} cards)`
      : arg;
    return { text, action: withUno(a), className: isSeat ? "seat" : `colour t-${arg}` };
  });
  const seats = choices.some((c) => c.className === "seat");
  openPicker(seats ? `Trade hands with whom? (${info.label})` : `Name a colour (${info.label})`,
    "", choices, true);
}

// -- what is heard and felt ---------------------------------------------------------------
/** Sounds, vibration and the your-turn call for what changed between two views. */
function react(before, v) {
  const mine = state.hello.seat;
  if (before && before.round === v.round && v.step > before.step) {
    if (v.top !== before.top) play("card");
    const grew = v.hand_sizes.map((n, s) => n > (before.hand_sizes[s] ?? n));
    if (grew.some(Boolean) && v.tension === 0) {
      play("burst");
      if (mine !== null && grew[mine]) vibrate([80, 40, 80, 40, 160]); // a burst aimed at you
    }
    const called = v.hand_sizes.some((n, s) => n === 1 && before.hand_sizes[s] !== 1
      && v.uno_window !== s);
    if (called) play("uno");
  }
  const myTurn = mine !== null && v.turn === mine && legal().length > 0;
  if (myTurn && !state.calling) {
    play("turn");
    vibrate([200, 100, 200]);
  }
  state.calling = myTurn;
  callTitle();
}

/** The tab's title says "Your turn" while it is, and the page is out of sight. */
function callTitle() {
  const name = state.hello?.name;
  const plain = name ? `${name} · UNO Attack` : "Watching · UNO Attack";
  document.title = state.calling && document.hidden ? `▶ Your turn! · ${plain}` : plain;
}

// -- help and settings ------------------------------------------------------------------
function drawHelp() {
  const hello = state.hello;
  const table = hello.table ?? {};
  $("help-rules").textContent = table.title
    ? `${table.title}, a ${table.match}.` : "The host did not say its rules.";
  const house = table.house_rules ?? [];
  $("help-house").replaceChildren(...(house.length ? house : [null]).map((rule) => {
    const li = document.createElement("li");
    if (rule === null) {
      li.textContent = "None: the official rules.";
    } else {
      const title = document.createElement("strong");
      title.textContent = `${rule.title}: ${rule.value}`;
      li.append(title, ` — ${rule.meaning}`);
      li.dataset.option = rule.option;
    }
    return li;
  }));
  const kinds = Object.entries(hello.cards ?? {});
  const numbers = kinds.filter(([, kind]) => !kind.effect).map(([symbol]) => symbol);
  const line = (signText, nameText, effect) => {
    const li = document.createElement("li");
    const sign = document.createElement("span");
    sign.className = "help-sign";
    sign.textContent = signText;
    const name = document.createElement("strong");
    name.textContent = nameText;
    li.append(sign, name, ` — ${effect}`);
    return li;
  };
  const lines = numbers.length ? [line(numbers.length > 1
    ? `${numbers[0]}–${numbers[numbers.length - 1]}` : numbers[0], "Numbers",
  "number cards, no effect")] : [];
  for (const [symbol, kind] of kinds.filter(([, k]) => k.effect)) {
    lines.push(line(kind.sign || symbol, kind.name, kind.effect));
  }
  $("help-cards").replaceChildren(...lines);
}

function useColourblind(on) {
  localStorage.setItem(COLOURBLIND_KEY, on ? "1" : "0");
  document.body.classList.toggle("colourblind", on);
  $("colourblind").setAttribute("aria-pressed", String(on));
}

function useMute(on) {
  setMuted(on);
  $("mute").setAttribute("aria-pressed", String(on));
  $("mute").setAttribute("aria-label", on ? "Unmute the sounds" : "Mute the sounds");
}

// -- dialogs ----------------------------------------------------------------------------
function openPicker(title, text, choices, cancellable, kind = "card") {
  const dialog = $("picker");
  $("picker-title").textContent = title;
  $("picker-text").textContent = text;
  $("picker-choices").replaceChildren(...choices.map((c) => button(c.text, c.action,
    { className: c.className ?? "" })));
  $("picker-cancel").hidden = !cancellable;
  state.picker = { kind, actions: choices.map((c) => c.action.replace(/ uno$/, "")) };
  if (!dialog.open) dialog.showModal();
}

function closePicker() {
  const dialog = $("picker");
  state.picker = null;
  if (dialog.open) dialog.close();
}

function drawPrompt(v) {
  if (v.prompt) {
    const choices = v.prompt.actions.map((a) => ({
      text: a === "retry" ? "Try again" : `${a.split(" ")[1]} came out`,
      action: a,
      className: a === "retry" ? "retry" : "count",
    }));
    openPicker("The launcher needs you", v.prompt.message, choices, false, "prompt");
  } else if (state.picker && (state.picker.kind === "prompt"
      || !state.picker.actions.every((a) => legal().includes(a)))) {
    closePicker(); // the choice it offered no longer stands
  }
}

function drawScores(v) {
  const dialog = $("scores");
  const over = v.turn === null && v.winner !== null;
  if (!over) {
    state.nextRoundAt = null;
    if (dialog.open) dialog.close();
    dialog.dataset.shown = "";
    return;
  }
  const hands = v.hands ?? [];
  $("scores-title").textContent = v.match_winner
    ? `Match over: ${v.match_winner.map((s) => state.hello.players[s]).join(" and ")} won`
    : `${state.hello.players[v.winner]} won round ${v.round ?? ""}`;
  $("scores-body").replaceChildren(...v.hand_sizes.map((count, seat) => {
    const tr = document.createElement("tr");
    const cells = [state.hello.players[seat], hands[seat] ? hands[seat].join(" ") || "—" : count,
      v.round_points ? `+${v.round_points[seat]}` : "…", v.scores[seat]];
    for (const c of cells) {
      const td = document.createElement("td");
      td.textContent = String(c);
      tr.append(td);
    }
    if (seat === v.winner) tr.className = "winner";
    return tr;
  }));
  state.nextRoundAt = v.match_winner || v.next_round_in == null ? null
    : Date.now() + v.next_round_in * 1000;
  $("scores-next").textContent = v.match_winner ? "Thanks for playing!" : "";
  const key = `${v.round}`;
  if (dialog.dataset.shown !== key && !dialog.open) {
    dialog.dataset.shown = key;
    dialog.showModal();
  }
}

let toastTimer = null;
function toast(text) {
  const t = $("toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 4000);
}

function banner(text, kind) {
  const b = $("banner");
  b.textContent = text;
  b.className = `banner ${kind}`;
  b.hidden = !text;
}

function tick() {
  if (state.view?.lobby) lobbyWhen();
  if (state.nextRoundAt != null) {
    const left = Math.max(0, Math.ceil((state.nextRoundAt - Date.now()) / 1000));
    $("scores-next").textContent = `Next round in ${left} s`;
  }
  const t = $("timer");
  if (state.deadlineAt === null) {
    t.textContent = "";
    return;
  }
  const left = Math.max(0, Math.ceil((state.deadlineAt - Date.now()) / 1000));
  t.textContent = `⏱ ${left} s`;
}

// -- wiring -------------------------------------------------------------------------------
const connection = new Connection(token, {
  message(msg) {
    if (msg.type === "hello") {
      state.hello = msg;
      useKinds(msg.cards);
      drawHelp();
      callTitle();
    } else if (msg.type === "view") {
      const before = state.view;
      state.view = msg;
      document.body.dataset.seq = String(msg.seq);
      render();
      react(before, msg);
    } else if (msg.type === "error") {
      toast(msg.plain ?? msg.message);  // the host's words for a player, when it has them
    }
  },
  state(name, detail) {
    document.body.dataset.connection = name;
    if (name === "lost") {
      banner(`Connection lost — reconnecting in ${Math.round(detail.wait / 100) / 10} s…`,
        "lost");
    } else if (name === "refused") {
      banner("This link no longer opens the table (the host may have started a new one): "
        + "ask the host for your link again.", "lost");
    } else if (name === "reconnected") {
      banner("Reconnected: you are back at your seat.", "back");
      setTimeout(() => { if (document.body.dataset.connection === "reconnected") banner(""); },
        3000);
    } else {
      banner("");
    }
  },
});

$("launcher").addEventListener("click", () => {
  $("launcher").classList.add("firing"); // until the host's next view says what came out
  if ($("launcher").dataset.action === "press") play("whir");
  send($("launcher").dataset.action);
});
$("help-open").addEventListener("click", () => $("help").showModal());
$("help-close").addEventListener("click", () => $("help").close());
$("colourblind").addEventListener("click", () =>
  useColourblind(!document.body.classList.contains("colourblind")));
$("mute").addEventListener("click", () => useMute(!muted()));
document.addEventListener("visibilitychange", callTitle);
useColourblind(localStorage.getItem(COLOURBLIND_KEY) === "1");
useMute(muted());
$("picker-cancel").addEventListener("click", closePicker);
$("scores-close").addEventListener("click", () => $("scores").close());
setInterval(tick, 500);
connection.open();
