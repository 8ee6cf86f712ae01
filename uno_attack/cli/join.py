"""``uno-attack join URL``: sit at a hosted table from this terminal (or watch it)."""

from __future__ import annotations

from uno_attack.cli.args import ArgumentParser
from uno_attack.errors import UnoAttackError


def main(argv: list[str]) -> int:
    parser = ArgumentParser(
        prog="uno-attack join",
        description="Join a table hosted with 'uno-attack host': give the join URL it printed "
                    "for your seat (or the watch URL).")
    parser.add_argument("url", metavar="URL", help="http://HOST:PORT/?token=...")
    args = parser.parse_args(argv)
    from uno_attack.config import load_settings, update_settings
    from uno_attack.net.client import socket_url
    from uno_attack.net.join_app import JoinApp

    socket_url(args.url)  # a URL that is not one is refused before the screen opens
    settings = load_settings()  # the hand's order, as play remembers it (sorted at first)
    app = JoinApp(args.url, sorted_hand=settings.hand_order == "sorted",
                  keep_order=lambda sorted_hand: update_settings(
                      hand_order="sorted" if sorted_hand else "dealt"))
    app.run()
    if app.failure is not None:  # the host unreachable, refusing the link, or broken
        raise UnoAttackError(app.failure)
    return app.return_code or 0
