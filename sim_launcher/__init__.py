"""The simulated launcher: ejection policies and the physical model of the dispenser.

This package depends on nothing else of the project, so the game, the GPIO driver and
the serial firmware emulator can all share it.
"""
