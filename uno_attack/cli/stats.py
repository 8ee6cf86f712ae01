"""``uno-attack stats [NAME]``: a player's record from the player store, or the leaderboard."""

from __future__ import annotations

import json

from uno_attack.cli.args import ArgumentParser, person_name
from uno_attack.cli.store_args import add_db_option, open_store
from uno_attack.store import LeaderboardRow, PlayerStats
from uno_attack.store.text import card_text, fired_to, tally_text, when


def main(argv: list[str]) -> int:
    parser = ArgumentParser(
        prog="uno-attack stats",
        description="A player's rounds and matches played and won, win rates, career points "
                    "and level, longest winning streak, favourite and luckiest cards; "
                    "without a name, the leaderboard of every person who has played.")
    parser.add_argument("name", nargs="?", type=person_name, metavar="NAME",
                        help="a person's name (any case)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_db_option(parser)
    args = parser.parse_args(argv)
    with open_store(args) as store:
        if args.name is not None:
            stats = store.player_stats(args.name)
            print(json.dumps(stats.to_json(), indent=2) if args.json else player_text(stats))
            return 0
        board = store.leaderboard()
        if args.json:
            print(json.dumps([row.to_json() for row in board], indent=2))
        elif not board:
            print(f"Nobody has played yet ({store.path}).")
        else:
            print(leaderboard_text(board))
    return 0


def player_text(stats: PlayerStats) -> str:
    lines = [
        f"{stats.name}: {stats.level.describe()}",
        f"  career points    {stats.career_points}",
        f"  playing since    {when(stats.since)}",
        f"  rounds won       {tally_text(stats.rounds)}",
        f"  matches won      {tally_text(stats.matches)}"
        + (f", and {stats.unfinished} left unfinished" if stats.unfinished else ""),
        f"  longest streak   {stats.longest_streak} round"
        f"{'s' if stats.longest_streak != 1 else ''} won in a row",
        f"  favourite card   {card_text(stats.favourite_card, 'played')}",
        f"  luckiest card    {card_text(stats.luckiest_card, fired_to(stats.name))}",
    ]
    groups = [(rules, record) for rules, record in stats.by_rules.items()]
    groups += [(f"{n} players", record) for n, record in stats.by_players.items()]
    if groups:
        width = max(len(label) for label, _ in groups)
        lines += ["", f"  {'win rate':<{width}}  {'rounds':<14}  matches"]
        lines += [f"  {label:<{width}}  {tally_text(r.rounds):<14}  {tally_text(r.matches)}"
                  for label, r in groups]
    return "\n".join(lines)


def leaderboard_text(board: list[LeaderboardRow]) -> str:
    name_w = max(len("player"), *(len(row.name) for row in board))
    level_w = max(len("level"), *(len(str(row.level)) for row in board))
    lines = [f"rank  {'player':<{name_w}}  {'level':<{level_w}}  points  {'rounds won':<14}"
             "  matches won"]
    lines += [f"{row.rank:>4}  {row.name:<{name_w}}  {row.level!s:<{level_w}}  "
              f"{row.career_points:>6}  {tally_text(row.rounds):<14}  {tally_text(row.matches)}"
              for row in board]
    return "\n".join(lines)
