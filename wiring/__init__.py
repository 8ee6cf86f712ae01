"""The Raspberry Pi GPIO dispenser: pin maps, the gpiozero driver, emulated hardware,
the wiring self-test and the standalone launcher daemon.

It imports the launcher interface of ``uno_attack`` and the physical model of
``sim_launcher``; ``uno_attack`` finds it only through entry points.
"""
