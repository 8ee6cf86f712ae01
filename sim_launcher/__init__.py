"""The simulated launcher and the dispenser's shared parts.

Ejection policies (``policies``, ``stats``); the dispenser's figures, limits and
closed-loop eject (``dispenser``, in the MicroPython subset: the board's firmware runs
the same file); the physical model (``physical``) and the emulated world around it
(``world``: clock, person, parts, named faults); numbers as a user types them
(``numbers``). This package depends on nothing else of the project, so the game, the GPIO
driver and the serial firmware emulator can all share it.
"""
