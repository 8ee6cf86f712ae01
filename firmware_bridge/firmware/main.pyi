# main.py is the Pico's boot script (``from firmware import pico``): it declares nothing.
