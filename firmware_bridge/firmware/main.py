"""Copied to the Pico as ``:main.py``: MicroPython runs it at power-up."""

from firmware import pico

pico.run()
