# ruff: noqa: UP031, SIM110, B905
"""ULP/1 codec: framing, CRC, and the reading and writing of every declared message.

It lives in the firmware package because the board runs this very file: it must stay
small and import nothing, so it runs on MicroPython as well as CPython. The host imports
it as ``firmware_bridge.firmware.ulp``.

The messages themselves are declared once, by the board (``board.py``), as Klipper
declares each command right beside its handler: ``@command("EJECT id count# max_ms#",
replies="OK CARD DONE")``, and ``DONE = ulp.reply("DONE id ejected# status")`` for what
it sends. Each declaration is a :class:`Format` in :data:`REQUESTS`, :data:`REPLIES` or
:data:`EVENTS`; from those tables this codec parses and writes every line, the board
finds its handlers and the host builds its requests and dispatches what comes back.
Importing the package loads the board's declarations.

A message is a ``Message(verb, rid, fields)``: ``rid`` the request id (``None`` for an
event, or for ``ERR -``), ``fields`` a dict of the values by name, ints already converted.
"""

MAX_PAYLOAD = 72
MAX_ID = 65535
VERSION = "ULP/1"
HEX_KEYS = ("boot", "session")
# ``boot=XXXXXXXX``, ``session=XXXXXXXX``: exactly this many digits, so that a line that
# lost a digit and still passes the CRC (CRC-16 misses 1 in 65536 such lines) is refused,
# not taken for a new session that makes the board forget the ids it must remember.
HEX_DIGITS = 8

REQUESTS = {}   # verb -> Format: what a host may ask
REPLIES = {}    # verb -> Format: what a device answers, with the request's id
EVENTS = {}     # verb -> Format: what a device says unasked


class ProtocolError(ValueError):
    """A line or payload that is not a valid ULP/1 message.

    ``code`` is the ``ERR`` code a device answers with (``crc``, ``verb`` or ``args``) and
    ``rid`` the request id when one could be read.
    """

    def __init__(self, code, message, rid=None):
        super().__init__(message)
        self.code = code
        self.rid = rid


def crc16(data, crc=0xFFFF):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor)."""
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


def framable(data):
    """What a receiver keeps of a payload's bytes: printable ASCII without ``*``, at most
    72, no two spaces.

    Exactly the framing rules of PROTOCOL.md; anything else wrong with a payload (a
    leading or trailing space, no words at all) is a matter of its verb and arguments.
    Bytes, never characters: MicroPython interns every one-character string it makes
    (iterating or indexing a str makes them) and never frees one, so checking a garbled
    line character by character would take a little of the heap, for good, for each new
    printable character the noise brings.
    """
    if len(data) > MAX_PAYLOAD or b"  " in data:
        return False
    for byte in data:
        if byte < 0x20 or byte > 0x7E or byte == 0x2A:
            return False
    return True


def valid_payload(data):
    """What a sender writes: a framable payload (bytes) of words separated by single spaces."""
    return bool(data) and data[0] != 0x20 and data[-1] != 0x20 and framable(data)


def frame(payload):
    """The bytes of one line: ``PAYLOAD*CCCC\\n``."""
    data = payload.encode()
    if not valid_payload(data):
        raise ProtocolError("args", "not a valid ULP/1 payload: %r" % payload)
    return data + ("*%04X\n" % crc16(data)).encode()


def unframe(line):
    """The payload of one received line (bytes, with or without its ``\\n``).

    Returns ``None`` for an empty line (ignored by every receiver); raises
    :class:`ProtocolError` with code ``crc`` for a line a receiver must drop.
    """
    if line.endswith(b"\n"):
        line = line[:-1]
    if line.endswith(b"\r"):
        line = line[:-1]
    if not line:
        return None
    if len(line) > MAX_PAYLOAD + 5 or len(line) < 5 or line[-5:-4] != b"*":
        raise ProtocolError("crc", "no *CCCC at the end of the line")
    body = line[:-5]
    if not framable(body) or not _is_hex(line[-4:]):   # bytes only: see framable
        raise ProtocolError("crc", "bad bytes in the line")
    if crc16(body) != int(line[-4:].decode(), 16):
        raise ProtocolError("crc", "CRC mismatch")
    return body.decode()


def _is_hex(data):
    """True if ``data`` (bytes) is hex digits, at least one."""
    if not data:
        return False
    for byte in data:
        if not (0x30 <= byte <= 0x39 or 0x41 <= byte <= 0x46 or 0x61 <= byte <= 0x66):
            return False
    return True


def _is_int(text):
    if text.startswith("-"):
        text = text[1:]
    return bool(text) and text.isdigit()


def parse_id(word):
    """A request id as an int, or ``None`` when the word is not one (1–65535, no 0 first)."""
    if not word.isdigit() or word.startswith("0") or len(word) > 5:
        return None
    value = int(word)
    return value if value <= MAX_ID else None


class Message:
    """One ULP/1 message: its verb, request id (or None) and fields by name."""

    def __init__(self, verb, rid=None, fields=None):
        self.verb = verb
        self.rid = rid
        self.fields = fields if fields is not None else {}

    def get(self, name, default=None):
        return self.fields.get(name, default)

    def __eq__(self, other):
        return (isinstance(other, Message) and self.verb == other.verb
                and self.rid == other.rid and self.fields == other.fields)

    def __repr__(self):
        return "Message(%r, %r, %r)" % (self.verb, self.rid, self.fields)


def _name(spec):
    return spec.rstrip("#%=").split("=")[0]


def _value(spec, text):
    if spec.endswith("#"):
        return int(text) if _is_int(text) else None
    if spec.endswith("%"):
        if text == "-":
            return "-"
        return parse_id(text)
    return text


class Format:
    """How one message is written: its verb, then its words in order.

    ``text`` is the line of the protocol: ``"EJECT id count# max_ms#"``. A bare name is a
    positional word, ``name=`` a key=value word; a ``#`` suffix makes the value an int,
    ``%`` an int or ``-`` (read as ``None``). ``id`` is the request id, ``id%`` an id or
    ``-``. ``replies`` are the verbs that answer a request, the first one at once;
    ``choices`` the values a word may take.
    """

    def __init__(self, text, replies="", choices=None):
        words = text.split(" ")
        self.text = text
        self.verb = words[0]
        self.words = tuple(words[1:])
        self.replies = tuple(replies.split())
        self.choices = choices if choices is not None else {}
        self.id_word = self.words[0] if self.words and _name(self.words[0]) == "id" else None
        rest = self.words[1:] if self.id_word is not None else self.words
        self.positional = [w for w in rest if "=" not in w]
        self.keyed = {}
        for w in rest:
            if "=" in w:
                self.keyed[_name(w)] = w

    def build(self, *values):
        """The payload: the verb, then ``values`` in the order of the words."""
        if len(values) != len(self.words):
            raise ProtocolError("args", "%s takes %d values, not %d" % (
                self.verb, len(self.words), len(values)))
        out = [self.verb]
        for spec, value in zip(self.words, values):
            name = _name(spec)
            if value is None and (spec.endswith("%") or spec == "id"):
                text = "-"
            elif name in HEX_KEYS:
                text = "%08X" % value if isinstance(value, int) else value.upper()
            else:
                text = str(value)
            out.append(name + "=" + text if "=" in spec else text)
        return " ".join(out)

    def format(self, msg):
        """The payload of a :class:`Message` of this verb."""
        return self.build(*[msg.rid if _name(s) == "id" else msg.fields[_name(s)]
                            for s in self.words])

    def parse(self, words, strict):
        """The message in ``words`` (the payload split at spaces, verb first).

        ``strict`` (a device reading a request) refuses extra positional words; key=value
        words a receiver does not know are ignored either way.
        """
        payload = " ".join(words)
        rid = None
        rest = words[1:]
        if self.id_word is not None:
            word = rest[0] if rest else ""
            rid = parse_id(word)
            if rid is None and not (self.id_word == "id%" and word == "-"):
                raise ProtocolError("args", "no usable id in %r" % payload)
            rest = rest[1:]
        fields = {}
        plain = []
        for word in rest:
            key, eq, text = word.partition("=")
            if eq:
                if key in self.keyed:
                    fields[key] = text
            else:
                plain.append(word)
        if len(plain) < len(self.positional) or (strict and len(plain) > len(self.positional)):
            raise ProtocolError("args", "wrong number of arguments in %r" % payload, rid)
        for s, text in zip(self.positional, plain):
            value = _value(s, text)
            if value is None:
                raise ProtocolError("args", "bad value %r in %r" % (text, payload), rid)
            fields[_name(s)] = value
        for key, s in self.keyed.items():
            if key not in fields:
                raise ProtocolError("args", "missing %s= in %r" % (key, payload), rid)
            text = fields[key]
            if key in HEX_KEYS:
                if not _is_hex(text.encode()) or len(text) != HEX_DIGITS:
                    raise ProtocolError("args", "bad %s=%s" % (key, text), rid)
                fields[key] = text.upper()
                continue
            value = _value(s, text)
            if value is None or value == "":
                raise ProtocolError("args", "bad %s=%s" % (key, text), rid)
            fields[key] = None if value == "-" and s.endswith("%") else value
        for key, allowed in self.choices.items():
            if fields.get(key) not in allowed:
                raise ProtocolError("args", "unknown %s in %r" % (key, payload), rid)
        return Message(self.verb, rid, fields)


def _declare(table, fmt):
    table[fmt.verb] = fmt
    return fmt


def request(text, replies):
    """Declare a request a host may send (the board declares each beside its handler)."""
    return _declare(REQUESTS, Format(text, replies))


def reply(text, **choices):
    """Declare a reply a device sends, carrying the request's id."""
    return _declare(REPLIES, Format(text, choices=choices))


def event(text, **choices):
    """Declare an event a device sends unasked."""
    return _declare(EVENTS, Format(text, choices=choices))


def _parse(payload, table, strict):
    words = payload.split(" ")
    fmt = table.get(words[0])
    if fmt is None:
        rid = parse_id(words[1]) if len(words) > 1 else None
        raise ProtocolError("verb", "unknown verb %r" % words[0], rid)
    return fmt.parse(words, strict)


def parse_request(payload):
    """A host-to-device message; :class:`ProtocolError` names the ``ERR`` code to answer."""
    return _parse(payload, REQUESTS, True)


def parse_device(payload):
    """A device-to-host message: a reply (``rid`` set) or an event."""
    verb = payload.split(" ")[0]
    return _parse(payload, EVENTS if verb in EVENTS else REPLIES, False)


def build_request(verb, *values):
    """The payload of request ``verb`` with its values (the id first)."""
    return REQUESTS[verb].build(*values)


def build_device(verb, *values):
    """The payload of a reply or event ``verb`` with its values."""
    return (EVENTS[verb] if verb in EVENTS else REPLIES[verb]).build(*values)


def format_request(msg):
    return REQUESTS[msg.verb].format(msg)


def format_device(msg):
    return (EVENTS[msg.verb] if msg.verb in EVENTS else REPLIES[msg.verb]).format(msg)
