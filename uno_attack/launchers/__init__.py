"""Launcher backends that need no hardware: the simulated ejector and the scripted one."""
