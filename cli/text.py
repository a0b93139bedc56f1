"""Small helpers for the words the commands print."""

from __future__ import annotations


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 tile``, ``2 tiles`` (``many``: an irregular plural, ``copies``)."""
    return f"{count} {word if count == 1 else many or word + 's'}"
