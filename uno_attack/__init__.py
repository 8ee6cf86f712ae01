"""UNO Attack!: the rules engine, the table loop and the terminal game.

The engine (:mod:`uno_attack.engine`) is a pure state machine; launchers, bots and
front ends sit around it (see ARCHITECTURE in the docs).
"""

__version__ = "0.1.0"
