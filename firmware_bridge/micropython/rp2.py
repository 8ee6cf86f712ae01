# ruff: noqa
"""The emulated Pico's ROM: what the RP2040 port has and the WebAssembly port lacks.

MicroPython code, run by ``pico.mjs`` before ``main.py``; never copied to a board. It makes
the modules ``pico.py`` imports (``machine``, ``select``, ``time``) out of the harness's
``_wire`` (a JS module): pins and the clock are those of the last sync with the emulator,
and every pin written is told to it at the next one, in order. ``WDT.feed()`` is that
sync: the firmware's main loop feeds the watchdog once per pass, as on a Pico.

The probe (:func:`probe`) reads the running firmware's state for the emulator's books, as
a debugger would over SWD; it never changes what the firmware does.

The heap: this port collects garbage only when Python returns to JavaScript (an
allocation that finds no room grows the heap instead), and the firmware's main loop never
returns. So ``WDT.feed()`` halts it between two passes, raising :class:`_Halt` out of
``main.py``, as a debugger halting the core would: the harness collects, and
:func:`resume` runs the firmware's own main loop (``pico.serve``) again on the same
``Firmware``, every byte of its state kept. While a halt unwinds ``main.py`` the pins keep
their levels (``pico.serve`` turns the motor off on its way out), so the firmware may be
halted in the middle of an eject. It is halted whenever half the heap it was given is
taken, so the heap does not grow (unless one pass takes the other half), as a Pico's
cannot; and when the emulator asks, at a pass with no job running, to read
``gc.mem_alloc()``/``gc.mem_free()`` after the collection.
A heap left to grow was no measure: the port adds the new parts at addresses (past 2 MB)
that the last three characters of a string and its NUL spell, and the collector, which
takes any word for a pointer, then kept dead objects there for good, a few at a time.
"""

import builtins
import gc
import io
import json
import sys

import _wire

_os = __import__("os")
_time = __import__("time")


class _Module:
    """A stand-in for a built-in module (MicroPython has no ``types.ModuleType``)."""


_HEAP = _wire.heap_size()   # the heap the board was given (--heap), in bytes
_firmware = []   # the Firmware of this power-up, once main.py made it
_dog = []        # its watchdog
_frozen = [False]   # True while a halt unwinds main.py: the pins keep their levels


class _Halt(BaseException):
    """The emulator halts the idle firmware between two passes, to read its heap."""


def probe():
    """The firmware's state for the emulator, or None before it runs."""
    if not _firmware:
        return None
    fw = _firmware[0]
    job = fw.job
    return [fw.starts, fw.boot, fw.session, fw.busy, fw.next_tick(),
            None if job is None else [job.verb, job.rid, job.want, job.count, job.status]]


def _watch(board):
    """Note the firmware's instance when it is made (the probe's only hook)."""
    init = board.Firmware.__init__

    def noted(self, *args, **kw):
        del _firmware[:]
        _firmware.append(self)
        limit = _wire.limit_ms()
        if limit:
            kw["limit_ms"] = limit
        init(self, *args, **kw)

    board.Firmware.__init__ = noted


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        if value is not None:
            self.value(value)

    def value(self, v=None):
        if v is None:
            return _wire.pin(self.id)
        if not _frozen[0]:
            _wire.write_pin(self.id, 1 if v else 0)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    __call__ = value


class PWM:
    def __init__(self, pin, freq=0, duty_u16=0):
        self.pin = pin
        self._freq = freq

    def freq(self, hz=None):
        if hz is None:
            return self._freq
        self._freq = hz

    def duty_u16(self, duty):
        if not _frozen[0]:
            _wire.write_pwm(self.pin.id, duty)

    def deinit(self):
        _wire.write_pwm(self.pin.id, 0)


class WDT:
    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        _dog[:] = [self]

    def feed(self):
        if _wire.sync(json.dumps(probe())) or gc.mem_alloc() > _HEAP // 2:
            _frozen[0] = True
            raise _Halt()


def reset():
    _wire.reset()


def soft_reset():
    _wire.reset()


def unique_id():
    return b"\xe6\x61\x38\x52\x83\x39\x5a\x2e"


def freq(hz=None):
    return 125000000


machine = _Module()
for _name in ("Pin", "PWM", "WDT", "reset", "soft_reset", "unique_id", "freq"):
    setattr(machine, _name, globals()[_name])


class _Poll:
    """``select.poll`` on the USB serial: readable while bytes wait in the Pico's buffer."""

    def __init__(self):
        self._objs = []

    def register(self, obj, mask=1):
        self._objs.append(obj)

    def unregister(self, obj):
        self._objs.remove(obj)

    def poll(self, timeout=-1):
        if self._objs and _wire.rx_ready():
            return [(self._objs[0], 1)]
        return []

    ipoll = poll


select = _Module()
select.poll = _Poll
select.POLLIN = 1
select.POLLOUT = 4
select.POLLERR = 8
select.POLLHUP = 16

time = _Module()
for _name in dir(_time):
    if not _name.startswith("__"):
        setattr(time, _name, getattr(_time, _name))
time.ticks_ms = _wire.ticks_ms
time.ticks_us = lambda: _wire.ticks_ms() * 1000
time.ticks_cpu = time.ticks_us

os = _Module()
for _name in dir(_os):
    if not _name.startswith("__"):
        setattr(os, _name, getattr(_os, _name))
os.urandom = lambda n: bytes(_wire.urandom(n))

# The WebAssembly port's filesystem raises Emscripten's errno numbers, which its own
# ``errno`` module does not know (ENOENT is 44, not 2): a Pico says ``[Errno 2] ENOENT``,
# and mpremote reads exactly that.
_ERRNO = {44: 2, 20: 17, 54: 20, 31: 21, 28: 22, 2: 13, 55: 39, 8: 9, 29: 5, 63: 1,
          51: 28}


def _pico_errno(call):
    def wrapped(*args, **kw):
        try:
            return call(*args, **kw)
        except OSError as exc:
            if exc.args and exc.args[0] in _ERRNO:
                raise OSError(_ERRNO[exc.args[0]]) from None
            raise
    return wrapped


for _name in ("stat", "listdir", "ilistdir", "mkdir", "remove", "rmdir", "rename", "chdir",
              "statvfs"):
    if hasattr(_os, _name):
        setattr(os, _name, _pico_errno(getattr(_os, _name)))
builtins.open = _pico_errno(builtins.open)
_stat = os.stat
os.stat = lambda path: _stat(path or ".")   # the Pico's VFS: "" is the current folder

sys.modules["machine"] = machine
sys.modules["os"] = os
sys.modules["select"] = select
sys.modules["time"] = time


def boot():
    """Run ``main.py`` as a Pico does at power-up: a traceback goes to the serial."""
    try:
        import firmware.board
        _watch(firmware.board)
    except BaseException:
        for name in list(sys.modules):   # main.py imports it again and fails in its turn
            if name == "firmware" or name.startswith("firmware."):
                del sys.modules[name]
    try:
        with open("main.py") as f:
            source = f.read()
    except OSError:
        return   # a blank board: straight to the REPL
    _main(lambda: exec(compile(source, "main.py", "exec"), {"__name__": "__main__"}))


def resume():
    """After a halt: the firmware's own main loop again, on the same firmware."""
    from firmware import pico
    firmware = _firmware[0]
    _frozen[0] = False
    _main(lambda: pico.serve(firmware.hal, firmware, _dog[0]))


def _main(run):
    """Run the firmware until it ends (a traceback goes to the serial) or is halted."""
    try:
        run()
    except _Halt:
        _wire.halted()
    except BaseException as exc:
        text = io.StringIO()
        sys.print_exception(exc, text)
        for line in text.getvalue().split("\n")[:-1]:
            if '"' + __file__ + '"' not in line:   # the ROM's own frames: not on a Pico
                print(line)
