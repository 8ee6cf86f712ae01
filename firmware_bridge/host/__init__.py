"""The host's end of a ULP/1 link, with pyserial, in parts a reader can hold in mind.

- :mod:`~firmware_bridge.host.transport`: the port, its reader thread, reopening it;
- :mod:`~firmware_bridge.host.asking`: PROTOCOL.md's retry and idempotence rules;
- :mod:`~firmware_bridge.host.session`: ids, the session token, the board's boot;
- :mod:`~firmware_bridge.host.presses`: every button press counted once;
- :mod:`~firmware_bridge.host.liveness`: pings on an idle link;
- :mod:`~firmware_bridge.host.link`: :class:`UlpLink`, the parts put together.
"""

from firmware_bridge.host.asking import PATIENCE_S, POLL_S, RETRY_S, TRIES
from firmware_bridge.host.link import UlpLink
from firmware_bridge.host.liveness import PING_MISSES, PING_S
from firmware_bridge.host.session import BoardInfo
from firmware_bridge.host.transport import BAUD, LinkStats, PortError

__all__ = ["BAUD", "PATIENCE_S", "PING_MISSES", "PING_S", "POLL_S", "RETRY_S", "TRIES",
           "BoardInfo", "LinkStats", "PortError", "UlpLink"]
