"""``python -m uno_attack`` is the ``uno-attack`` command."""

import sys

from uno_attack.cli import main

sys.exit(main())
