"""The ULP/1 codec: CRC, framing, and every message of PROTOCOL.md both ways."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.firmware import ulp

# PROTOCOL.md's example session, exactly as written there.
EXAMPLE = """\
HELLO 1 session=5A3C9E01*73AC
HELLO 1 ULP/1 boot=0F3A11C2 fw=1.0.0 cards=12 max_ms=10000*629F
PRESS 1*1B5F
EJECT 2 3 4000*82F9
OK 2*C319
CARD 2 1*B5B3
CARD 2 2*85D0
CARD 2 3*95F1
DONE 2 3 ok*4252
STATUS 3*64CC
STATUS 3 motor=0 beam=1 button=0 presses=1 ejecting=-*A486
EJECT 5 2 4000*0041
OK 5*B3FE
CARD 5 1*3023
DONE 5 1 jam*DE71"""
REQUEST_LINES = {"HELLO 1 session=5A3C9E01", "EJECT 2 3 4000", "STATUS 3", "EJECT 5 2 4000"}


class TestCrc:
    def test_check_value(self) -> None:
        assert ulp.crc16(b"123456789") == 0x29B1

    def test_empty_is_init(self) -> None:
        assert ulp.crc16(b"") == 0xFFFF


class TestFraming:
    @pytest.mark.parametrize("line", EXAMPLE.splitlines())
    def test_protocol_example_round_trips(self, line: str) -> None:
        payload = ulp.unframe(line.encode() + b"\n")
        assert payload is not None
        assert ulp.frame(payload) == line.encode() + b"\n"
        if payload in REQUEST_LINES:
            assert ulp.format_request(ulp.parse_request(payload)) == payload
        else:
            assert ulp.format_device(ulp.parse_device(payload)) == payload

    def test_crlf_and_lower_case_crc_accepted(self) -> None:
        assert ulp.unframe(b"OK 2*c319\r\n") == "OK 2"

    def test_empty_line_is_ignored(self) -> None:
        assert ulp.unframe(b"\n") is None
        assert ulp.unframe(b"\r\n") is None

    @pytest.mark.parametrize("line", [
        b"OK 2*C318\n",              # CRC off by one
        b"OK 2\n",                   # no *CCCC
        b"OK  2*" + b"%04X" % ulp.crc16(b"OK  2") + b"\n",   # two spaces
        b"OK\x012*0000\n",           # a control byte
        b"OK 2*C3G9\n",              # not hex
        b"A" * 73 + b"*" + b"%04X" % ulp.crc16(b"A" * 73) + b"\n",  # too long
    ])
    def test_bad_lines_are_dropped(self, line: bytes) -> None:
        with pytest.raises(ulp.ProtocolError) as info:
            ulp.unframe(line)
        assert info.value.code == "crc"

    @given(st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E,
                                          blacklist_characters="*"), min_size=1, max_size=72))
    def test_any_valid_payload_round_trips(self, payload: str) -> None:
        assert ulp.unframe(ulp.frame(payload)) == payload

    @given(st.integers(0, 16), st.integers(0, 7))
    def test_one_bit_flip_never_gives_another_message(self, index: int, bit: int) -> None:
        line = bytearray(ulp.frame("DONE 12 3 ok")[:-1])
        line[index] ^= 1 << bit
        try:
            payload = ulp.unframe(bytes(line))
        except ulp.ProtocolError:
            return
        assert payload == "DONE 12 3 ok"  # only a hex digit's case changed


class TestRequests:
    def test_parse_eject(self) -> None:
        msg = ulp.parse_request("EJECT 7 3 4000")
        assert (msg.verb, msg.rid, msg.fields) == ("EJECT", 7, {"count": 3, "max_ms": 4000})

    def test_unknown_keys_are_ignored(self) -> None:
        msg = ulp.parse_request("HELLO 9 session=abcd0001 colour=blue")
        assert msg.fields == {"session": "ABCD0001"}

    @pytest.mark.parametrize(("payload", "code", "rid"), [
        ("FIRE 3", "verb", 3),
        ("FIRE", "verb", None),
        ("EJECT 0 3 4000", "args", None),      # ids are 1..65535
        ("EJECT 03 3 4000", "args", None),     # no leading zeros
        ("EJECT 65536 3 4000", "args", None),
        ("EJECT 4 3", "args", 4),
        ("EJECT 4 3 4000 9", "args", 4),
        ("EJECT 4 three 4000", "args", 4),
        ("HELLO 4", "args", 4),
        ("HELLO 4 session=4BB65A0", "args", 4),     # XXXXXXXX: eight digits, no fewer …
        ("HELLO 4 session=4BB659A00", "args", 4),   # … and no more
        ("MOTOR 4 -50 x", "args", 4),
    ])
    def test_errors_name_the_code(self, payload: str, code: str, rid: int | None) -> None:
        with pytest.raises(ulp.ProtocolError) as info:
            ulp.parse_request(payload)
        assert (info.value.code, info.value.rid) == (code, rid)

    def test_a_boot_is_eight_hex_digits(self) -> None:
        with pytest.raises(ulp.ProtocolError):
            ulp.parse_device("BOOT boot=F3A11C2")
        assert ulp.parse_device("BOOT boot=0f3a11c2").fields == {"boot": "0F3A11C2"}

    def test_builders_make_parseable_requests(self) -> None:
        payloads = [ulp.build_request("HELLO", 1, "5a3c9e01"),
                    ulp.build_request("EJECT", 2, 3, 4000),
                    ulp.build_request("MOTOR", 3, -40, 500), ulp.build_request("STOP", 4),
                    ulp.build_request("STATUS", 5), ulp.build_request("PING", 6)]
        assert payloads == ["HELLO 1 session=5A3C9E01", "EJECT 2 3 4000", "MOTOR 3 -40 500",
                            "STOP 4", "STATUS 5", "PING 6"]
        for payload in payloads:
            assert ulp.format_request(ulp.parse_request(payload)) == payload


class TestDeviceMessages:
    @pytest.mark.parametrize("payload", [
        ulp.build_device("HELLO", 1, "ULP/1", "0F3A11C2", "1.0.0", 12, 10000),
        ulp.build_device("OK", 2), ulp.build_device("CARD", 2, 1),
        ulp.build_device("DONE", 2, 3, "timeout"), ulp.build_device("PONG", 5),
        ulp.build_device("STATUS", 3, 1, 0, 1, 17, 9), ulp.build_device("ERR", 4, "busy"),
        ulp.build_device("ERR", None, "crc"), ulp.build_device("BOOT", "0F3A11C2"),
        ulp.build_device("PRESS", 12), ulp.build_device("FAULT", "overrun"),
    ])
    def test_every_reply_and_event_round_trips(self, payload: str) -> None:
        assert ulp.format_device(ulp.parse_device(payload)) == payload

    def test_events_have_no_id(self) -> None:
        msg = ulp.parse_device("PRESS 4")
        assert (msg.rid, msg.fields) == (None, {"n": 4})

    def test_unknown_status_is_refused(self) -> None:
        with pytest.raises(ulp.ProtocolError):
            ulp.parse_device("DONE 2 3 maybe")
