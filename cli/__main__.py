"""``python -m rummikub.cli``."""

from rummikub.cli import run

run()
