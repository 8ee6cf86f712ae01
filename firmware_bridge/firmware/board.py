"""The dispenser firmware's logic: ULP/1 commands, the closed-loop eject, button, faults.

It talks to hardware only through a :class:`hal.Hal` and to time only through
``hal.ticks_ms()``, so the very same code runs on a Pico (``pico.py``) and in the emulator.
The board is small and safe on its own (Klipper's habit): it bounds the motor by the
request's ``max_ms`` and by its own limit, whatever the host does; the host does the
thinking.

This file is the protocol's table (Klipper's habit): each request is declared right
beside its handler, ``@command("EJECT id count# max_ms#", replies="OK CARD DONE")``, and
every line the board sends is declared once below, ``DONE = ulp.reply(...)``. The codec,
the host's builders and its dispatch all read these declarations (see ``ulp``).
"""

from . import dispenser, ulp

FW_VERSION = "1.0.0"
CARDS = dispenser.CARDS    # the most cards one EJECT may ask for
MAX_MS = dispenser.MAX_MS  # the longest one EJECT may run
MOTOR_MAX_MS = 2000   # the longest MOTOR run (wiring tests)
LIMIT_MS = MAX_MS + 500   # the board's own limit on a motor run, past any request
BEAM_FILTER_MS = 2    # the beam must be stable this long (ignores glitches)
SENSOR_MS = 500       # the beam blocked this long while idle: FAULT sensor
MEMORY = 8            # EJECT/MOTOR ids remembered per session
MAX_LINE = ulp.MAX_PAYLOAD + 5

ERROR_CODES = ("crc", "verb", "args", "range", "busy")

# -- what the board sends: replies carry the request's id, events none -------------------
HELLO = ulp.reply("HELLO id protocol boot= fw= cards=# max_ms=#")
OK = ulp.reply("OK id")
CARD = ulp.reply("CARD id n#")
DONE = ulp.reply("DONE id ejected# status", status=dispenser.STATUSES)
STATUS = ulp.reply("STATUS id motor=# beam=# button=# presses=# ejecting=%")
PONG = ulp.reply("PONG id")
ERR = ulp.reply("ERR id% code", code=ERROR_CODES)
BOOT = ulp.event("BOOT boot=")
PRESS = ulp.event("PRESS n#")
FAULT = ulp.event("FAULT code")

COMMANDS = {}


def command(text, replies):
    """Declare a request (its protocol line and the verbs that answer it) and its handler."""
    fmt = ulp.request(text, replies)

    def register(handler):
        COMMANDS[fmt.verb] = handler
        return handler
    return register


class Job(dispenser.Eject):
    """A running EJECT or MOTOR: the dispenser's closed loop, and the request it answers."""

    def __init__(self, verb, rid, epoch, settings, want, max_ms, now, duty, beam, hopper,
                 ticks_diff):
        super().__init__(settings, want, max_ms, now, duty=duty, beam_blocked=beam,
                         hopper_empty=hopper, ticks_diff=ticks_diff)
        self.verb = verb
        self.rid = rid
        self.epoch = epoch        # the session it belongs to: its DONE is stored only there


class Firmware:
    """One power-up of the board. ``poll()`` is one pass of the main loop.

    ``settings`` (a :class:`dispenser.Settings`) are the board's own dispenser timings;
    change them in ``pico.py`` to fit a machine.
    """

    def __init__(self, hal, settings=None, limit_ms=LIMIT_MS):
        self.hal = hal
        self.settings = settings if settings is not None else dispenser.Settings()
        self.limit_ms = limit_ms
        hal.set_motor(0)
        hal.set_led(False)
        hal.set_buzzer(False)
        self.motor_on = False
        self.motor_duty = 0
        self.motor_since = 0
        self.boot = hal.boot_id()
        self.session = None       # unnamed until a HELLO
        self.epoch = 0
        # [[rid, count, status], ...] oldest first, status None until its DONE: ints and
        # the dispenser's own status words, not the line, whose size would sway with ids
        self.memory = []
        self.job = None
        self.presses = 0
        self.rx = bytearray(MAX_LINE + 1)   # the line coming in, made once …
        self.rx_len = 0                     # … this much of it so far
        self.rx_overflow = False
        now = hal.ticks_ms()
        self.button = False
        self.debouncer = dispenser.Debouncer(self.settings.debounce_ms, hal.ticks_diff)
        blocked = bool(hal.beam_blocked())
        self.beam_raw = self.beam = blocked
        self.beam_since = now
        self.beam_changed = now
        self.sensor_fault = False
        self.beep_since = None    # the buzzer sounds since this tick
        self.starts = 0           # EJECT/MOTOR jobs started (for the emulator's books)
        self.leaving = False      # a REPL request: the main loop ends, the REPL takes over
        self.send(BOOT, self.boot)

    # -- output ---------------------------------------------------------------------------
    def send(self, message, *values):
        """Send one declared ``message`` with its values."""
        self.hal.write(ulp.frame(message.build(*values)))

    # -- main loop ------------------------------------------------------------------------
    def poll(self):
        """Read the link, sample the inputs, run the job and the safety checks."""
        data = self.hal.read()
        while data:
            self.feed(data)
            data = self.hal.read()
        now = self.hal.ticks_ms()
        self._sample_button(now)
        self._sample_beam(now)
        if self.job is not None:
            self._run_job(now)
        if self.beep_since is not None \
                and self.hal.ticks_diff(now, self.beep_since) >= dispenser.FIRE_BEEP_MS:
            self.beep_since = None
            self.hal.set_buzzer(False)
        self._check_limit(now)
        self._check_sensor(now)

    def motor_deadline(self):
        """The tick by which a timer of the firmware may have to switch the motor, or None.

        The job's own timers (``max_ms``, its jam time, the end of a reverse pulse) and
        the board's own limit. The emulator steps its model exactly to it, so that the
        motor is switched at that very tick (on a board the main loop polls much faster
        than a tick).
        """
        now = self.hal.ticks_ms()
        ticks = []
        if self.motor_on:
            ticks.append(self.motor_since + self.limit_ms)
        job = self.job
        if job is not None and job.status is None:
            ticks.append(now + job.wait_ms(now))
        return min(ticks) if ticks else None

    def next_tick(self):
        """The tick at which :meth:`poll` next has a timer to act on, or None.

        The motor's (:meth:`motor_deadline`), a job settling, the beam filter, the beep,
        the sensor fault: between an input's changes and this tick a poll changes
        nothing, so the emulator polls exactly then (a board's main loop polls much
        faster than a tick, and finds the same).
        """
        ticks = []
        motor = self.motor_deadline()
        if motor is not None:
            ticks.append(motor)
        job = self.job
        if job is not None and job.status is not None and not job.finished:
            now = self.hal.ticks_ms()
            ticks.append(now + job.wait_ms(now))
        if self.beam_raw != self.beam:
            ticks.append(self.beam_since + BEAM_FILTER_MS)
        if self.beep_since is not None:
            ticks.append(self.beep_since + dispenser.FIRE_BEEP_MS)
        if self.beam and job is None and not self.motor_on and not self.sensor_fault:
            ticks.append(self.beam_changed + SENSOR_MS)
        return min(ticks) if ticks else None

    @property
    def busy(self):
        """True while a timer is running (a job, a filtered input, a beep): poll often."""
        return (self.job is not None or self.motor_on or self.beam_raw != self.beam
                or self.beep_since is not None)

    # -- link -----------------------------------------------------------------------------
    def feed(self, data):
        """Take received bytes; handle each complete line."""
        for byte in data:
            if byte == 10:  # \n
                n, overflow = self.rx_len, self.rx_overflow
                self.rx_len = 0
                self.rx_overflow = False
                if overflow:
                    self.send(ERR, None, "crc")
                else:
                    self.handle_line(bytes(self.rx[:n]))
            elif self.rx_len > MAX_LINE:
                self.rx_overflow = True
            else:
                self.rx[self.rx_len] = byte
                self.rx_len += 1

    def handle_line(self, line):
        try:
            payload = ulp.unframe(line)
        except ulp.ProtocolError:
            self.send(ERR, None, "crc")
            return
        if payload is None:
            return
        try:
            msg = ulp.parse_request(payload)
        except ulp.ProtocolError as exc:
            self.send(ERR, exc.rid, exc.code)
            return
        COMMANDS[msg.verb](self, msg)

    # -- commands -------------------------------------------------------------------------
    @command("HELLO id session=", replies="HELLO")
    def cmd_hello(self, msg):
        session = msg.fields["session"]
        if session != self.session:
            self.session = session
            self.epoch += 1
            self.memory = []
        self.send(HELLO, msg.rid, ulp.VERSION, self.boot, FW_VERSION, CARDS, MAX_MS)

    @command("EJECT id count# max_ms#", replies="OK CARD DONE")
    def cmd_eject(self, msg):
        count, max_ms = msg.fields["count"], msg.fields["max_ms"]
        self._job_request(msg, 1 <= count <= CARDS and 1 <= max_ms <= MAX_MS,
                          count, max_ms, None)

    @command("MOTOR id duty# ms#", replies="OK CARD DONE")
    def cmd_motor(self, msg):
        duty, ms = msg.fields["duty"], msg.fields["ms"]
        self._job_request(msg, -100 <= duty <= 100 and 1 <= ms <= MOTOR_MAX_MS,
                          None, ms, duty / 100)

    @command("STOP id", replies="OK")
    def cmd_stop(self, msg):
        """The motor off at once; a running job then ends ``DONE … stopped``."""
        self._motor(0)
        self.send(OK, msg.rid)
        job = self.job
        if job is not None:  # running until its DONE is sent (it makes the board busy)
            job.stop(self.hal.ticks_ms())

    @command("STATUS id", replies="STATUS")
    def cmd_status(self, msg):
        ejecting = self.job.rid if self.job is not None else None
        self.send(STATUS, msg.rid, int(self.motor_on), int(not self.beam), int(self.button),
                  self.presses, ejecting)

    @command("REPL id", replies="OK")
    def cmd_repl(self, msg):
        """Leave the firmware for MicroPython's REPL (to re-flash without the button): the
        motor off at once, then ``OK``; a running job ends there, with no ``DONE``."""
        self._motor(0)
        self.job = None
        self.send(OK, msg.rid)
        self.leaving = True

    @command("PING id", replies="PONG")
    def cmd_ping(self, msg):
        self.send(PONG, msg.rid)

    # -- jobs -----------------------------------------------------------------------------
    def _job_request(self, msg, in_range, want, max_ms, duty):
        """An EJECT or MOTOR: a remembered id first, then busy, then range (docs/protocol.md)."""
        if self._repeat(msg.rid):
            return
        if self.job is not None:
            self.send(ERR, msg.rid, "busy")
        elif not in_range:
            self.send(ERR, msg.rid, "range")
        else:
            self._start(msg.verb, msg.rid, want, max_ms, duty)

    def _repeat(self, rid):
        """Answer a remembered id with one line, moving nothing; True if it was one."""
        for entry in self.memory:
            if entry[0] == rid:
                if entry[2] is not None:
                    self.send(DONE, rid, entry[1], entry[2])  # the remembered DONE
                else:
                    self.send(OK, rid)
                return True
        return False

    def _start(self, verb, rid, want, max_ms, duty):
        if len(self.memory) >= MEMORY:   # room first: a ninth entry would double the list
            self.memory.pop(0)
        self.memory.append([rid, None, None])
        now = self.hal.ticks_ms()
        hopper = want is not None and bool(self.hal.hopper_empty())
        self.job = Job(verb, rid, self.epoch, self.settings, want, max_ms, now, duty,
                       self.beam, hopper, self.hal.ticks_diff)
        self.starts += 1
        self.send(OK, rid)
        if verb == "EJECT" and self.job.status is None:
            self.beep_since = now
            self.hal.set_buzzer(True)
        self._motor(self.job.duty)

    def _run_job(self, now):
        job = self.job
        job.poll(now, job.want is not None and bool(self.hal.hopper_empty()))
        self._motor(job.duty)
        if job.finished:
            self._finish(job)

    def _finish(self, job):
        if job.epoch == self.epoch:
            for entry in self.memory:
                if entry[0] == job.rid:
                    entry[1], entry[2] = job.count, job.status
        self.job = None
        self.send(DONE, job.rid, job.count, job.status)

    def _motor(self, duty):
        """Drive the motor at ``duty`` (−1…1); the LED is lit while it runs."""
        percent = round(duty * 100)
        if percent == self.motor_duty:
            return
        on = percent != 0
        if on and not self.motor_on:
            self.motor_since = self.hal.ticks_ms()
        self.motor_on = on
        self.motor_duty = percent
        self.hal.set_motor(percent)
        self.hal.set_led(on)

    # -- inputs and safety ----------------------------------------------------------------
    def _sample_button(self, now):
        raw = bool(self.hal.button_down())
        if raw != self.button:
            self.button = raw
            if self.debouncer.edge(raw, now):
                self.presses += 1
                self.send(PRESS, self.presses)

    def _sample_beam(self, now):
        raw = bool(self.hal.beam_blocked())
        if raw != self.beam_raw:
            self.beam_raw = raw
            self.beam_since = now
        elif raw != self.beam and self.hal.ticks_diff(now, self.beam_since) >= BEAM_FILTER_MS:
            self.beam = raw
            self.beam_changed = now
            job = self.job
            if job is not None:
                if job.beam(now, raw):
                    self.send(CARD, job.rid, job.count)
                self._motor(job.duty)

    def _check_limit(self, now):
        if self.motor_on and self.hal.ticks_diff(now, self.motor_since) >= self.limit_ms:
            self._motor(0)
            self.send(FAULT, "overrun")
            job = self.job
            if job is not None:
                job.overrun(now)

    def _check_sensor(self, now):
        idle_blocked = self.beam and self.job is None and not self.motor_on
        if idle_blocked and not self.sensor_fault \
                and self.hal.ticks_diff(now, self.beam_changed) >= SENSOR_MS:
            self.sensor_fault = True
            self.send(FAULT, "sensor")
        elif not self.beam:
            self.sensor_fault = False
