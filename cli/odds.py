"""``rummikub odds``: exact odds of a hand (winning hands, opening melds), counted."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

import click

from rummikub.cli.errors import fail, guard
from rummikub.cli.options import Number, json_option, seed_option
from rummikub.cli.rule_options import standard_rules_options
from rummikub.cli.text import plural
from rummikub.models.rules import STANDARD

if TYPE_CHECKING:
    from rummikub.analysis.odds import HandOdds, Question
    from rummikub.models.rules import RuleSet

_RANGE = re.compile(r"\s*(\d{1,4})\s*(?:\.\.\s*(\d{1,4})\s*)?")


def parse_sizes(text: str) -> list[int]:
    """``14``, ``14..26`` or ``3,6,14..16``: the hand sizes asked for."""
    sizes: list[int] = []
    for part in text.split(","):
        match = _RANGE.fullmatch(part)
        if match is None:
            fail(f"--tiles {text!r}: write a size like 14, a range like 14..26, or a list 3,6,9")
        low = int(match.group(1))
        high = int(match.group(2) or low)
        if high < low:
            fail(f"--tiles {text!r}: the range {low}..{high} runs backwards")
        if low < 1:
            fail(f"--tiles {text!r}: a hand holds at least 1 tile")
        sizes.extend(range(low, high + 1))
    return sorted(set(sizes))


@click.command(
    name="odds",
    help="""Exact odds of a hand: how many hands of N tiles are winning hands
(every tile in a legal set) or can make the opening meld.

\b
Counts are exact integers two ways: distinct hands (multisets of tile
types, as van Rijn, Takes & Vis count them) and draws (sets of physical
tiles, all equally likely; their fraction is the chance of a dealt rack).
Where exact counting is out of reach (runs round the top with --wrap, or a
count that runs past --max-seconds) a Monte Carlo estimate of dealt hands
with its 95% interval is printed instead, labelled as such.

\b
Examples:
  rummikub odds --tiles 14 --no-jokers     # the published 14-tile figure
  rummikub odds --tiles 14                 # with the two jokers (about a minute)
  rummikub odds --opening --tiles 3..9 --colours 3 --numbers 6 --copies 1 \\
      --jokers 1 --threshold 15
  rummikub odds --tiles 3..9 --no-jokers --json
""",
)
@click.option(
    "--tiles",
    "tiles_spec",
    default=None,
    metavar="N|A..B",
    help="Hand size, a range A..B (a table), or a list 3,6,9 (default: the rules' rack "
    f"size, {STANDARD.rack_size} in the standard game).",
)
@click.option("--no-jokers", is_flag=True, help="Count the game without its jokers.")
@click.option(
    "--opening",
    is_flag=True,
    help="Ask whether the hand holds sets worth at least the threshold (jokers worth the "
    "tile they stand for), not whether it is a winning hand.",
)
@click.option(
    "--method",
    type=click.Choice(["auto", "exact", "estimate"]),
    default="auto",
    show_default=True,
    help="auto: exact where in reach, else an estimate; exact: fail rather than estimate.",
)
@click.option(
    "--samples",
    type=click.IntRange(min=1, max=10_000_000),
    default=20_000,
    show_default=True,
    help="Dealt hands per size for an estimate.",
)
@seed_option("the estimate")
@click.option(
    "--max-seconds",
    type=Number(min=0.1),
    default=120.0,
    show_default=True,
    help="Give up an exact count after this long (then estimate, unless --method exact); "
    "an estimate also stops dealing a size's hands after this long.",
)
@json_option()
@standard_rules_options
@guard
def odds(
    tiles_spec: str | None,
    no_jokers: bool,
    opening: bool,
    method: str,
    samples: int,
    seed: int,
    max_seconds: float,
    as_json: bool,
    rules: RuleSet,
) -> None:
    from dataclasses import replace

    from rummikub.analysis.odds import Question

    sizes = parse_sizes(tiles_spec or str(rules.rack_size))
    if no_jokers:
        rules = replace(rules, jokers=0)
    question = Question.OPENING if opening else Question.WINNING
    rows, note = _count(sizes, rules, question, method, samples, seed, max_seconds)
    if as_json:
        payload = {
            "question": str(question),
            "rules": rules.options(),
            "note": note,
            "rows": [row.to_json() for row in rows],
        }
        click.echo(json.dumps(payload))
        return
    click.echo(render(rows, rules, question, note))


def _count(
    sizes: list[int],
    rules: RuleSet,
    question: Question,
    method: str,
    samples: int,
    seed: int,
    max_seconds: float,
) -> tuple[list[HandOdds], str]:
    """The rows, counted exactly where in reach (or as ``method`` says), and a note on why
    they were estimated instead."""
    from rummikub.analysis.odds import CountTooLarge, count_hands, estimate_hands

    def estimated() -> list[HandOdds]:
        return estimate_hands(
            sizes, rules, question, samples=samples, seed=seed, max_seconds=max_seconds
        )

    if method == "estimate":
        return estimated(), "estimated as asked (--method estimate)"
    if rules.wrap:
        if method == "exact":
            fail("exact counting does not cover runs round the top (--wrap); use --method auto")
        return estimated(), "exact counting does not cover runs round the top (wrap)"
    try:
        return count_hands(sizes, rules, question, max_seconds=max_seconds), ""
    except CountTooLarge as error:
        if method == "exact":
            raise
        return estimated(), str(error)


def render(rows: list[HandOdds], rules: RuleSet, question: object, note: str) -> str:
    """Rows for a person: exact integers and fractions, or estimates with their interval."""
    from rummikub.analysis.odds import Question

    what = (
        f"can make the opening meld (sets worth at least {max(rules.initial_threshold, 1)})"
        if question is Question.OPENING
        else "are winning hands (every tile in a legal set)"
    )
    jokers = plural(rules.jokers, "joker") if rules.jokers else "no jokers"
    game = (
        f"{plural(rules.colours, 'colour')} x 1..{rules.numbers} x "
        f"{plural(rules.copies, 'copy', 'copies')} + {jokers} ({plural(rules.total_tiles, 'tile')})"
    )
    lines = [f"Hands that {what}; {game}:"]
    for row in rows:
        size = f"  {row.size:>3} {'tile: ' if row.size == 1 else 'tiles:'}"
        if row.exact:
            lines.append(
                f"{size} {row.hands:,} of {row.all_hands:,} distinct hands "
                f"({_percent(row.hand_fraction)})"
            )
            if row.draws != row.hands or row.all_draws != row.all_hands:
                lines.append(
                    f"             {row.draws:,} of {row.all_draws:,} equally likely draws "
                    f"({_percent(row.chance)}: the chance of a dealt hand)"
                )
        else:
            lines.append(
                f"{size} ESTIMATE {_percent(row.chance)} "
                f"(95% interval {_percent(row.low)} .. {_percent(row.high)}; "
                f"{row.hits:,} of {row.samples:,} dealt hands"
                + ("; stopped at the time limit)" if row.cut_short else ")")
            )
    seconds = sum({row.seconds for row in rows}) if rows else 0.0
    method = "exact count" if rows and rows[0].exact else "Monte Carlo estimate, not exact"
    lines.append(f"  ({method}; {seconds:.1f} s)")
    if note:
        lines.append(f"  note: {note}")
    return "\n".join(lines)


def _percent(fraction: float) -> str:
    if fraction == 0:
        return "0%"
    if fraction >= 0.001:
        return f"{100 * fraction:.4f}%"
    return f"{100 * fraction:.4g}%"
