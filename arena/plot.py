"""The ``--plot`` figure: win rates with 95% error bars, and each entrant's score distribution.

Needs matplotlib (``pip install 'rummikub[plot]'``); imported only when a plot is asked for.
"""

from __future__ import annotations

import os
from typing import Any

from rummikub.arena.tournament import TournamentResult
from rummikub.game.errors import ArenaError


def import_pyplot() -> Any:
    """matplotlib's pyplot on the non-interactive backend, or an error saying how to install."""
    try:
        import matplotlib
    except ImportError:
        raise ArenaError(
            "--plot needs matplotlib: pip install 'rummikub[plot]' (or pip install matplotlib)"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def check_plot_path(path: str) -> None:
    """Fail now (an :class:`ArenaError`) unless matplotlib can write the format that the
    file's extension names (none: png)."""
    import_pyplot()  # first: without matplotlib, the error that says how to install it
    from matplotlib.backend_bases import FigureCanvasBase

    suffix = os.path.splitext(path)[1].lstrip(".").lower()
    formats = FigureCanvasBase.get_supported_filetypes()
    if suffix and suffix not in formats:
        raise ArenaError(
            f"--plot {path}: matplotlib cannot write .{suffix} files; name a file ending in "
            + ", ".join(f".{f}" for f in ("png", "svg", "pdf") if f in formats)
        )


def plot_result(result: TournamentResult, path: str) -> None:
    """Write the figure to ``path`` (the format follows the extension: png, svg, pdf)."""
    plt = import_pyplot()
    entrants = result.entrants
    names = [e.name for e in entrants]
    rates = [e.wins / e.games if e.games else 0.0 for e in entrants]
    intervals = [e.win_interval() for e in entrants]
    below = [max(0.0, r - lo) for r, (lo, _) in zip(rates, intervals, strict=True)]
    above = [max(0.0, hi - r) for r, (_, hi) in zip(rates, intervals, strict=True)]
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5), constrained_layout=True)
    positions = list(range(len(names)))
    left.bar(positions, rates, yerr=[below, above], capsize=4, color="tab:blue", alpha=0.8)
    left.axhline(1 / result.config.table_size, color="grey", linestyle="--", linewidth=1)
    left.set_xticks(positions, names, rotation=30, ha="right")
    left.set_ylabel("win rate (95% Wilson interval)")
    left.set_ylim(0, 1)
    left.set_title(
        f"{result.games} games, {result.config.table_size} players, seed {result.config.seed}"
    )
    data = [e.scores or [0] for e in entrants]
    right.violinplot(data, positions=positions, showmedians=True)
    right.set_xticks(positions, names, rotation=30, ha="right")
    right.set_ylabel("score per game" + (" (match)" if result.config.game.target else ""))
    right.axhline(0, color="grey", linewidth=1)
    right.set_title("score distribution")
    figure.savefig(path, dpi=120)
    plt.close(figure)
