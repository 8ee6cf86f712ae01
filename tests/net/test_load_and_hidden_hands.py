"""Whole games watched message by message: no connection ever gets a card it may not see;
and one host with 10 seats and 100 watchers keeps every client in step."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks.bench_host import drive
from tests.net.helpers import connect, host_config, play_round, running_host, url_of
from uno_attack.cards import Card
from uno_attack.errors import InvalidCardError
from uno_attack.net.server import Connection, wire_text


def card_codes(value: Any) -> Iterator[str]:
    """Every card code anywhere in a message: list items, field values, words of text."""
    if isinstance(value, dict):
        for item in value.values():
            yield from card_codes(item)
    elif isinstance(value, list):
        for item in value:
            yield from card_codes(item)
    elif isinstance(value, str):
        for word in value.replace(",", " ").split():
            try:
                yield Card.parse(word).code
            except InvalidCardError:
                continue


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_no_message_holds_a_card_of_another_seats_hand(
        tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    config = host_config(tmp_path, humans=("Ann", "Bob"), players=4, seed=seed)
    sent: list[tuple[int | None, str, list[list[str]], list[str], bool]] = []
    async with running_host(config) as host:
        flow = host.flow
        put, next_view = Connection._put, Connection.next_view

        def record(conn: Connection, item: str | tuple[int, str]) -> None:
            game = flow.game
            seat = flow.seat_of(conn.player) if conn.player is not None else None
            sent.append((seat, wire_text(item), [[c.code for c in h] for h in game.hands],
                         [c.code for c in game.discard], game.over))

        def recording_put(self: Connection, item: str | tuple[int, str]) -> None:
            record(self, item)
            put(self, item)

        def recording_next_view(self: Connection, body: str) -> tuple[int, str]:
            item = next_view(self, body)
            record(self, item)
            return item

        monkeypatch.setattr(Connection, "_put", recording_put)
        monkeypatch.setattr(Connection, "next_view", recording_next_view)
        ann, bob = await connect(url_of(host, "Ann")), await connect(url_of(host, "Bob"))
        second_phone = await connect(url_of(host, "Ann"))
        watch = await connect(url_of(host, None))
        await asyncio.gather(play_round(ann, seed=seed), play_round(bob, seed=seed + 9))
        for client in (ann, bob, second_phone, watch):
            await client.close()
    views = 0
    for seat, text, hands, discard, over in sent:
        message = json.loads(text)
        if message["type"] != "view":
            assert message["type"] in ("hello", "error")
            message.pop("cards", None)  # a hello's card kinds: the rule set's signs, no hand
            assert set(card_codes(message)) <= set(discard) | (
                set(hands[seat]) if seat is not None else set()), message
            continue
        views += 1
        if over:
            assert message["hands"] == hands  # settled point 8: shown once the round is over
            continue
        assert "hands" not in message
        own = set(hands[seat]) if seat is not None else set()
        assert set(card_codes(message)) <= own | set(discard), (seat, message)
        if seat is None:
            assert "hand" not in message
            assert "legal" not in message
        else:
            assert sorted(message["hand"]) == sorted(hands[seat])
    assert views > 100  # whole rounds were watched


async def test_ten_seats_and_a_hundred_watchers_see_every_seq_and_the_same_end(
        tmp_path: Path) -> None:
    names = tuple(f"P{i}" for i in range(10))
    config = host_config(tmp_path, humans=names, players=10, seed=5)
    async with running_host(config) as host:
        result = await drive([url_of(host, n) for n in names], url_of(host, None),
                             watchers=100)
        truth = [[c.code for c in h] for h in host.flow.game.hands]
    assert len(result.finals) == 110  # every client reached the end, its seq without gaps
    assert all(final == result.finals[0] for final in result.finals)
    assert result.finals[0]["hands"] == truth
    assert result.acts > 10
