// The emulated Pico: MicroPython's WebAssembly port, its flash a host folder, its pins and
// USB serial on a pipe to the emulator (firmware_bridge/pico_emulator.py).
//
//   node pico.mjs --flash DIR [--heap BYTES]
//
// One JSON line each way per sync. The emulator sends the inputs of a moment of model time
// ({"t": ms, "pins": {gp: level}, "rx": latin-1 bytes, "limit_ms": n}, and "halt": true to
// read the heap of an idle firmware, as rp2.py tells); the board runs until
// its next sync (one pass of the firmware's main loop, or the REPL taking the bytes) and
// answers with what it did, in order ({"out": [["s", bytes] | ["p", gp, level] |
// ["w", gp, duty_u16]], "probe": ..., "mode": "run" | "repl", "reset": bool}, after a halt
// "heap": [gc.mem_alloc(), gc.mem_free()] read after a collection).
// The first line it writes is {"banner": ...}, before it reads anything.
import crypto from "crypto";
import fs from "fs";
import path from "path";
import { fileURLToPath } from "url";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FLASH = "/flash";   // the board's filesystem, inside MicroPython
const ROM = "/rom";       // the emulator's own modules, outside it

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const hostFlash = option("--flash");
const heap = parseInt(option("--heap", String(192 * 1024)), 10);

// -- the pipe to the emulator ---------------------------------------------------------------
let inbox = Buffer.alloc(0);
const chunk = Buffer.alloc(65536);

function readLine() {
  for (;;) {
    const end = inbox.indexOf(10);
    if (end >= 0) {
      const text = inbox.subarray(0, end).toString("latin1");
      inbox = inbox.subarray(end + 1);
      return text;
    }
    let n;
    try {
      n = fs.readSync(0, chunk, 0, chunk.length, null);
    } catch (err) {
      if (err.code === "EAGAIN") continue;
      throw err;
    }
    if (n === 0) process.exit(0);   // the emulator is gone: power off
    inbox = Buffer.concat([inbox, chunk.subarray(0, n)]);
  }
}

function writeLine(obj) {
  const data = Buffer.from(JSON.stringify(obj) + "\n", "utf8");   // bytes past 127 too
  let done = 0;
  while (done < data.length) {
    try {
      done += fs.writeSync(1, data, done);
    } catch (err) {
      if (err.code !== "EAGAIN") throw err;
    }
  }
}

// -- the board's state between syncs --------------------------------------------------------
let now = 0;
let pins = {};
let rx = [];
let limitMs = 0;
let out = [];
let serial = [];   // bytes written to the USB serial since the last entry in out

function flushSerial() {
  if (serial.length) {
    out.push(["s", Buffer.from(serial).toString("latin1")]);
    serial = [];
  }
}

function take(tick) {
  now = tick.t;
  pins = tick.pins;
  limitMs = tick.limit_ms || 0;
  for (const c of Buffer.from(tick.rx, "latin1")) rx.push(c);
}

let halted = false;    // the firmware was halted between two passes (rp2.py: _Halt) …
let readHeap = false;  // … for the emulator to read its heap, not only to collect …
let heapRead = null;   // … and that heap read after the collection, for the next answer

function answer(extra) {
  flushSerial();
  writeLine({ out, ...extra, ...(heapRead ? { heap: heapRead } : {}) });
  out = [];
  heapRead = null;
}

// -- the flash: the host folder, copied in at power-up and written back ---------------------
function load(FS, host, inside) {
  for (const name of fs.readdirSync(host)) {
    const from = path.join(host, name);
    const to = inside + "/" + name;
    if (fs.statSync(from).isDirectory()) {
      FS.mkdir(to);
      load(FS, from, to);
    } else {
      FS.writeFile(to, fs.readFileSync(from));
    }
  }
}

function store(FS, inside, host) {
  const seen = new Set();
  for (const name of FS.readdir(inside)) {
    if (name === "." || name === "..") continue;
    seen.add(name);
    const from = inside + "/" + name;
    const to = path.join(host, name);
    if (FS.isDir(FS.stat(from).mode)) {
      if (fs.existsSync(to) && !fs.statSync(to).isDirectory()) fs.rmSync(to);
      fs.mkdirSync(to, { recursive: true });
      store(FS, from, to);
    } else {
      const data = FS.readFile(from);
      if (fs.existsSync(to) && fs.statSync(to).isDirectory()) fs.rmSync(to, { recursive: true });
      if (!fs.existsSync(to) || !fs.readFileSync(to).equals(Buffer.from(data))) {
        fs.writeFileSync(to, data);
      }
    }
  }
  for (const name of fs.readdirSync(host)) {
    if (!seen.has(name)) fs.rmSync(path.join(host, name), { recursive: true, force: true });
  }
}

// -- MicroPython ----------------------------------------------------------------------------
const mp = await loadMicroPython({
  heapsize: heap,
  stdin: () => (rx.length ? rx.shift() : null),
  stdout: (data) => { for (const c of data) serial.push(c); },
  stderr: (data) => { for (const c of data) serial.push(c); },
  linebuffer: false,
});
const FS = mp.FS;

function reset() {   // machine.reset(): the flash is kept, the board restarts
  store(FS, FLASH, hostFlash);
  answer({ reset: true, probe: null, mode: "reset" });
  process.exit(0);
}

mp.registerJsModule("_wire", {
  ticks_ms: () => now,
  pin: (gp) => pins[gp] ?? 1,
  write_pin: (gp, level) => { flushSerial(); out.push(["p", gp, level]); },
  write_pwm: (gp, duty) => { flushSerial(); out.push(["w", gp, duty]); },
  rx_ready: () => rx.length > 0,
  limit_ms: () => limitMs,
  heap_size: () => heap,
  sync: (probe) => {   // true: halt the firmware here (the emulator reads its heap)
    answer({ probe: JSON.parse(probe), mode: "run" });
    const tick = JSON.parse(readLine());
    take(tick);
    readHeap = Boolean(tick.halt);
    return readHeap;
  },
  halted: () => { halted = true; },
  heap: (alloc, free) => { heapRead = [alloc, free]; },
  urandom: (n) => [...crypto.getRandomValues(new Uint8Array(n))],
  reset,
});

FS.mkdir(FLASH);
FS.mkdir(ROM);
load(FS, hostFlash, FLASH);
FS.writeFile(ROM + "/rp2.py", fs.readFileSync(path.join(HERE, "rp2.py")));
const sys = mp.pyimport("sys");
writeLine({ banner: `${sys.version.split("; ")[1]}; ${sys.implementation._machine}` });

take(JSON.parse(readLine()));
mp.runPython(`
import os, sys
os.chdir("${FLASH}")
sys.path.append("${ROM}")
import rp2
sys.path.remove("${ROM}")
del sys.modules["rp2"]
rp2.boot()
`);
// A halt: back in JavaScript, where this port collects. gc.collect() asks for a
// collection, made as the call returns here; then the heap is read if the emulator asked,
// and the firmware's main loop runs on.
while (halted) {
  halted = false;
  mp.runPython("import gc\ngc.collect()");
  if (readHeap) mp.runPython("import gc, _wire\n_wire.heap(gc.mem_alloc(), gc.mem_free())");
  mp.runPython("rp2.resume()");
}

// main.py has ended (or there is none): the REPL, as on the Pico.
mp.replInit();
store(FS, FLASH, hostFlash);
answer({ probe: null, mode: "repl" });
let raw = false;        // the raw REPL (Ctrl-A), where mpremote works …
let rawEmpty = true;    // … with nothing typed since its prompt
let paste = null;       // the code of a raw paste, while it comes in …
let windowLeft = 0;     // … and the bytes the host may send before the next window
const WINDOW = 128;     // the RP2040 port's: half its 256-byte stdin buffer

// The raw REPL runs the pasted code, as the RP2040 port's does; its "OK" is not said in
// raw-paste mode (the host had the code's end acknowledged instead).
function runPaste(code) {
  for (const b of code) mp.replProcessChar(b);
  const at = serial.length;
  mp.replProcessChar(4);
  if (serial[at] === 79 && serial[at + 1] === 75) serial.splice(at, 2);
}

for (;;) {
  take(JSON.parse(readLine()));
  let ran = false;
  while (rx.length) {
    const c = rx.shift();
    if (paste !== null) {
      // Raw-paste mode: the code with the RP2040 port's flow control (one 0x01 per window
      // taken in), up to Ctrl-D, acknowledged with Ctrl-D; Ctrl-C drops it.
      if (c === 4 || c === 3) {
        serial.push(4);
        runPaste(c === 4 ? paste : Buffer.from("raise KeyboardInterrupt"));
        paste = null;
        ran = true;
        continue;
      }
      paste.push(c);
      if (--windowLeft === 0) {
        serial.push(1);
        windowLeft = WINDOW;
      }
      continue;
    }
    if (raw && rawEmpty && c === 4) {
      // Ctrl-D on an empty raw REPL: a soft reset, as the RP2040 port does it (the
      // WebAssembly port has none); main.py is not run from the raw REPL.
      for (const b of Buffer.from("\r\nMPY: soft reboot\r\nraw REPL; CTRL-B to exit\r\n>")) {
        serial.push(b);
      }
      continue;
    }
    if (raw && rawEmpty && c === 5 && rx[0] === 65 && rx[1] === 1) {
      // Ctrl-E A Ctrl-A asks for raw-paste mode. The WebAssembly port's REPL cannot wait
      // for the code it reads, so the harness takes it in as the RP2040 port does: "R",
      // 1, the window size (two windows free), then the code.
      rx.splice(0, 2);
      serial.push(82, 1, WINDOW & 0xff, WINDOW >> 8, 1);
      paste = [];
      windowLeft = WINDOW;
      continue;
    }
    if (c === 1) raw = true;
    else if (c === 2) raw = false;
    rawEmpty = c === 1 || c === 3 || c === 4 || (rawEmpty && c < 32 && c !== 5);
    ran = ran || c === 4;
    mp.replProcessChar(c);
  }
  if (ran) store(FS, FLASH, hostFlash);
  answer({ probe: null, mode: "repl" });
}
