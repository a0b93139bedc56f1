"""``python -m rummikub.cli``."""

from rummikub.cli.main import main

main()
