"""ULP/1 is declared once, in board.py: the codec, the board and the host all read it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_bridge.emulator import EmulatedBoard
from firmware_bridge.firmware import board, ulp
from firmware_bridge.host import UlpLink


def test_every_request_of_protocol_md_is_declared_with_its_replies() -> None:
    assert {verb: fmt.replies for verb, fmt in ulp.REQUESTS.items()} == {
        "HELLO": ("HELLO",), "EJECT": ("OK", "CARD", "DONE"), "MOTOR": ("OK", "CARD", "DONE"),
        "STOP": ("OK",), "STATUS": ("STATUS",), "PING": ("PONG",), "REPL": ("OK",)}
    assert set(board.COMMANDS) == set(ulp.REQUESTS)  # each declaration is its handler's
    assert set(ulp.EVENTS) == {"BOOT", "PRESS", "FAULT"}
    assert set(ulp.REPLIES) == {"HELLO", "OK", "CARD", "DONE", "STATUS", "PONG", "ERR"}


@pytest.fixture
def lamp_verb() -> Iterator[None]:
    """A new request, as docs/protocol.md shows how to add one: a line and its handler."""

    @board.command("LAMP id on#", replies="OK")
    def cmd_lamp(self: board.Firmware, msg: ulp.Message) -> None:
        self.hal.set_led(bool(msg.fields["on"]))
        self.send(board.OK, msg.rid)

    yield
    del ulp.REQUESTS["LAMP"]
    del board.COMMANDS["LAMP"]


def test_a_new_verb_is_one_declaration_plus_its_handler(lamp_verb: None,
                                                        tmp_path: Path) -> None:
    with EmulatedBoard(link=tmp_path / "board", seed=1, time_scale=20) as emulated:
        link = UlpLink(emulated.port, retry_s=0.05, ping_s=30)
        link.open()
        try:
            reply = link.call("LAMP", 1)   # the host builds it and knows what answers it
            assert reply.verb == "OK"
            assert emulated.world.led.driven
            assert ulp.parse_request("LAMP 9 0").fields == {"on": 0}
            with pytest.raises(ulp.ProtocolError) as info:
                ulp.parse_request("LAMP 9 on")
            assert (info.value.code, info.value.rid) == ("args", 9)
        finally:
            link.close()
