"""``python -m rummikub.cli``."""

from rummikub.cli.main import run

run()
