"""The runnable examples of README.md and docs/, collected as tests (tests/doc_examples.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "tests"))

from doc_examples import is_slow, sybil  # tests/ is a script folder: no package to import

pytest_collect_file = sybil().pytest()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A block marked ``<!-- slow -->`` in its document is a ``slow`` test."""
    for item in items:
        example = getattr(item, "example", None)
        if example is not None and is_slow(example):
            item.add_marker(pytest.mark.slow)
