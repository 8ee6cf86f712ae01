# ruff: noqa: UP031, SIM110, B905
"""ULP/1 codec: framing, CRC and the text of every request, reply and event.

It lives in the firmware package because the board runs this very file: it must stay
small and import nothing, so it runs on MicroPython as well as CPython. The host imports
it as ``firmware_bridge.firmware.ulp``.

A message is a ``Message(verb, rid, fields)``: ``rid`` the request id (``None`` for an
event, or for ``ERR -``), ``fields`` a dict of the values by name, ints already converted.
"""

MAX_PAYLOAD = 72
MAX_ID = 65535
VERSION = "ULP/1"

# How each message is written: the verb, then its words in order. A bare name is a
# positional word, ``name=`` a key=value word; a ``#`` suffix makes the value an int,
# ``%`` an int or ``-``. ``id`` is the request id (or ``-`` in ``ERR``).
REQUESTS = {
    "HELLO": ("id", "session="),
    "EJECT": ("id", "count#", "max_ms#"),
    "MOTOR": ("id", "duty#", "ms#"),
    "STOP": ("id",),
    "STATUS": ("id",),
    "PING": ("id",),
}
REPLIES = {
    "HELLO": ("id", "protocol", "boot=", "fw=", "cards=#", "max_ms=#"),
    "OK": ("id",),
    "CARD": ("id", "n#"),
    "DONE": ("id", "ejected#", "status"),
    "STATUS": ("id", "motor=#", "beam=#", "button=#", "presses=#", "ejecting=%"),
    "PONG": ("id",),
    "ERR": ("id", "code"),
}
EVENTS = {
    "BOOT": ("boot=",),
    "PRESS": ("n#",),
    "FAULT": ("code",),
}
STATUSES = ("ok", "jam", "empty", "timeout", "stopped")
ERROR_CODES = ("crc", "verb", "args", "range", "busy")
FAULT_CODES = ("sensor", "overrun")
HEX_KEYS = ("boot", "session")


class ProtocolError(ValueError):
    """A line or payload that is not a valid ULP/1 message.

    ``code`` is the ``ERR`` code a device answers with (``crc``, ``verb`` or ``args``) and
    ``rid`` the request id when one could be read.
    """

    def __init__(self, code, message, rid=None):
        ValueError.__init__(self, message)
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


def framable(payload):
    """What a receiver keeps: printable ASCII without ``*``, at most 72, no two spaces.

    Exactly the framing rules of PROTOCOL.md; anything else wrong with a payload (a
    leading or trailing space, no words at all) is a matter of its verb and arguments.
    """
    if len(payload) > MAX_PAYLOAD or "  " in payload:
        return False
    for ch in payload:
        if ch < " " or ch > "~" or ch == "*":
            return False
    return True


def valid_payload(payload):
    """What a sender writes: a framable payload of words separated by single spaces."""
    return bool(payload) and payload[0] != " " and payload[-1] != " " and framable(payload)


def frame(payload):
    """The bytes of one line: ``PAYLOAD*CCCC\\n``."""
    if not valid_payload(payload):
        raise ProtocolError("args", "not a valid ULP/1 payload: %r" % payload)
    data = payload.encode()
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
    try:
        payload = body.decode()
        check = int(line[-4:].decode(), 16)
    except (UnicodeError, ValueError):
        raise ProtocolError("crc", "bad bytes in the line") from None
    if not _is_hex(line[-4:].decode()) or not framable(payload):
        raise ProtocolError("crc", "bad bytes in the line")
    if crc16(body) != check:
        raise ProtocolError("crc", "CRC mismatch")
    return payload


def _is_hex(text):
    if not text:
        return False
    for ch in text:
        if ch not in "0123456789abcdefABCDEF":
            return False
    return True


def _is_int(text):
    if text.startswith("-"):
        text = text[1:]
    return bool(text) and text.isdigit()


def parse_id(word):
    """A request id as an int, or ``None`` when the word is not one (1–65535, no 0 first)."""
    if not word.isdigit() or word[0] == "0" or len(word) > 5:
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


def _value(spec, text):
    if spec.endswith("#"):
        return int(text) if _is_int(text) else None
    if spec.endswith("%"):
        if text == "-":
            return "-"
        return parse_id(text)
    return text


def _parse(payload, table, strict):
    """Parse ``payload`` against one of the tables above.

    ``strict`` (a device reading a request) refuses extra positional words; key=value
    words a receiver does not know are ignored either way.
    """
    words = payload.split(" ")
    verb = words[0]
    spec = table.get(verb)
    if spec is None:
        rid = parse_id(words[1]) if len(words) > 1 else None
        raise ProtocolError("verb", "unknown verb %r" % verb, rid)
    rid = None
    fields = {}
    rest = words[1:]
    if spec[0] == "id":
        word = rest[0] if rest else ""
        rid = parse_id(word)
        if rid is None and not (verb == "ERR" and word == "-"):
            raise ProtocolError("args", "no usable id in %r" % payload)
        rest = rest[1:]
        spec = spec[1:]
    positional = [s for s in spec if "=" not in s]
    keyed = {}
    for s in spec:
        if "=" in s:
            keyed[s.split("=")[0]] = s
    plain = []
    for word in rest:
        key, eq, text = word.partition("=")
        if eq:
            if key in keyed:
                fields[key] = text
        else:
            plain.append(word)
    if len(plain) < len(positional) or (strict and len(plain) > len(positional)):
        raise ProtocolError("args", "wrong number of arguments in %r" % payload, rid)
    for s, text in zip(positional, plain):
        value = _value(s, text)
        if value is None:
            raise ProtocolError("args", "bad value %r in %r" % (text, payload), rid)
        fields[s.rstrip("#%")] = value
    for key, s in keyed.items():
        if key not in fields:
            raise ProtocolError("args", "missing %s= in %r" % (key, payload), rid)
        text = fields[key]
        if key in HEX_KEYS:
            if not _is_hex(text) or len(text) > 8:
                raise ProtocolError("args", "bad %s=%s" % (key, text), rid)
            fields[key] = text.upper()
            continue
        value = _value(s, text)
        if value is None or value == "":
            raise ProtocolError("args", "bad %s=%s" % (key, text), rid)
        fields[key] = None if value == "-" and s.endswith("%") else value
    return Message(verb, rid, fields)


def parse_request(payload):
    """A host-to-device message; :class:`ProtocolError` names the ``ERR`` code to answer."""
    return _parse(payload, REQUESTS, True)


def parse_device(payload):
    """A device-to-host message: a reply (``rid`` set) or an event."""
    verb = payload.split(" ")[0]
    if verb in EVENTS:
        return _parse(payload, EVENTS, False)
    msg = _parse(payload, REPLIES, False)
    if msg.verb == "ERR" and msg.fields.get("code") not in ERROR_CODES:
        raise ProtocolError("args", "unknown error code in %r" % payload, msg.rid)
    if msg.verb == "DONE" and msg.fields.get("status") not in STATUSES:
        raise ProtocolError("args", "unknown status in %r" % payload, msg.rid)
    return msg


def format_message(msg, table):
    """The payload of ``msg`` as written by the tables above."""
    spec = table[msg.verb]
    words = [msg.verb]
    for s in spec:
        if s == "id":
            words.append("-" if msg.rid is None else str(msg.rid))
            continue
        name = s.rstrip("#%=")
        value = msg.fields[name]
        if s.endswith("%") and value is None:
            value = "-"
        text = ("%08X" % value if isinstance(value, int) else value.upper()) \
            if name in HEX_KEYS else str(value)
        words.append(name + "=" + text if "=" in s else text)
    return " ".join(words)


def format_request(msg):
    return format_message(msg, REQUESTS)


def format_device(msg):
    return format_message(msg, EVENTS if msg.verb in EVENTS else REPLIES)


# Short builders for the lines both sides write most; each returns the payload text.
def hello(rid, session):
    return "HELLO %d session=%s" % (rid, session.upper())


def eject(rid, count, max_ms):
    return "EJECT %d %d %d" % (rid, count, max_ms)


def motor(rid, duty, ms):
    return "MOTOR %d %d %d" % (rid, duty, ms)


def simple(verb, rid):
    """``STOP``, ``STATUS``, ``PING``, ``OK`` or ``PONG`` with just an id."""
    return "%s %d" % (verb, rid)


def hello_reply(rid, boot, fw, cards, max_ms):
    return "HELLO %d %s boot=%s fw=%s cards=%d max_ms=%d" % (rid, VERSION, boot, fw, cards,
                                                              max_ms)


def card(rid, n):
    return "CARD %d %d" % (rid, n)


def done(rid, ejected, status):
    return "DONE %d %d %s" % (rid, ejected, status)


def status_reply(rid, motor_on, beam_clear, button, presses, ejecting):
    return "STATUS %d motor=%d beam=%d button=%d presses=%d ejecting=%s" % (
        rid, motor_on, beam_clear, button, presses, "-" if ejecting is None else ejecting)


def err(rid, code):
    return "ERR %s %s" % ("-" if rid is None else rid, code)


def boot_event(boot):
    return "BOOT boot=%s" % boot


def press_event(n):
    return "PRESS %d" % n


def fault_event(code):
    return "FAULT %s" % code
