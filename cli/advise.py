"""``rummikub advise``: play all, play part or hold? Each candidate move's chance to win.

A thin layer over :mod:`rummikub.analysis.advice`; the arena and the solver load only when the
command runs.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from rummikub.cli.errors import fail
from rummikub.cli.errors import guard as _guard
from rummikub.cli.options import (
    Number,
    apply,
    executor_options,
    jobs_option,
    json_option,
    seed_option,
    table_rack_options,
)
from rummikub.cli.rule_options import rules_options

if TYPE_CHECKING:
    from rummikub.analysis.advice import Advice, Situation
    from rummikub.models.rules import RuleSet


def _sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(part) for part in text.replace(",", " ").split())
    except ValueError:
        fail(f"--opponents takes the opponents' rack sizes like '6 9 11', got {text!r}")
    if not sizes:
        fail("--opponents is empty: give each opponent's rack size, like '6 9 11'")
    return sizes


def _tiles(tiles: list[str]) -> str:
    return " ".join(tiles) if tiles else "-"


def render_text(advice: Advice, executor: str, jobs: int) -> str:
    """The table of candidates, the recommendation and what each move keeps back."""
    from rummikub.analysis.advice import chance_texts, describe

    data = advice.to_json()
    situation = advice.situation
    rack = len(situation.position.rack)
    sizes = " ".join(map(str, situation.opponents))
    waiting = [str(i) for i, opened in enumerate(situation.others_opened, 1) if not opened]
    if len(waiting) == len(situation.opponents):
        sizes += " (none has opened; "
    elif waiting:
        sizes += f" (opponent {' and '.join(waiting)} {'has' if len(waiting) == 1 else 'have'}"
        sizes += " not opened; "
    else:
        sizes += " ("
    lines = [
        f"Your turn: {rack} tiles on your rack, {situation.players} players, pool "
        f"{situation.pool}, opponents hold {sizes}played out as {advice.model})",
        "",
        f"  {'move':<12} {'places':>6} {'keeps':>5} {'win chance':>10}  {'95% CI':<13} "
        f"{'mean score':>10}",
    ]
    for entry in data["candidates"]:
        chance, interval = chance_texts(entry)
        score = "" if entry["mean_score"] is None else f"{entry['mean_score']:+.1f}"
        lines.append(
            f"  {entry['move']:<12} {len(entry['placed']):>6} {len(entry['kept']):>5} "
            f"{chance:>10}  {interval:<13} {score:>10}"
        )
    best = advice.best
    lines += ["", f"Recommended: {best.candidate.label} ({describe(best)})"]
    for entry in data["candidates"]:
        if entry["placed"]:
            placed, kept = _tiles(entry["placed"]), _tiles(entry["kept"])
            lines.append(f"  {entry['move']}: places {placed}; keeps {kept}")
    where = executor if executor != "process" else f"process, {jobs} job{'s' * (jobs != 1)}"
    if data["rollouts"]:
        lines.append(
            f"{data['rollouts']} rollouts per move in {data['seconds']:.1f} s "
            f"({where}, seed {data['seed']})"
        )
    else:
        lines.append("Going out wins the round: no rollouts needed.")
    return "\n".join(lines)


def rollout_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """The options that say how to weigh the candidates (also on ``game NAME advise``)."""
    return apply(
        func,
        [
            click.option(
                "--model",
                default="max-tiles",
                show_default=True,
                help="How the opponents play in the rollouts: a built-in strategy "
                "('rummikub arena --list' lists them).",
            ),
            click.option(
                "--rollouts",
                type=click.IntRange(min=1),
                default=32,
                show_default=True,
                help="Random deals each candidate is played out on (reproducible for a --seed).",
            ),
            click.option(
                "--time",
                "seconds",
                type=Number(min=0.1),
                default=None,
                help="Think this many seconds of wall-clock time instead: as many rollouts as fit.",
            ),
            seed_option("the random deals"),
            jobs_option(None, "the rollouts", "every core"),
            executor_options("rollouts"),
        ],
    )


def give_advice(
    situation: Situation,
    *,
    model: str,
    rollouts: int,
    seconds: float | None,
    seed: int,
    jobs: int | None,
    executor: str,
    ray_address: str | None,
    as_json: bool,
    extra: dict[str, Any] | None = None,
    note: str | None = None,
) -> None:
    """Weigh the situation's candidates and print the advice (``extra`` joins the JSON)."""
    from rummikub.analysis.advice import advise as weigh

    if executor == "ray":
        from rummikub.arena.executors import import_ray

        import_ray()
    jobs = jobs or os.cpu_count() or 1
    advice = weigh(
        situation,
        rollouts=rollouts,
        seconds=seconds,
        seed=seed,
        model=model,
        executor=executor,
        jobs=jobs,
        ray_address=ray_address,
    )
    if as_json:
        out: dict[str, Any] = {**advice.to_json(), **(extra or {})}
        click.echo(json.dumps(out))
        return
    if note:
        click.echo(click.style(note, fg="yellow"))
    click.echo(render_text(advice, executor, jobs))


@click.command(
    help="""Play all, play part, or hold? Estimate each candidate move's chance to win.

\b
The candidates: play all (the move placing the most tiles); play
part: before opening the smallest opening, after it the same keeping
jokers back, keeping the rack's own sets back (keep sets) or laying
only those (sets only); and holding (draw).
Each is played out to the end of the round on random deals of the
tiles you cannot see (into the opponents' racks, at their sizes, and
the pool), you as the planner, the opponents as --model; the same
deals for every candidate. The move with the highest win chance is
recommended.
\b
POSITION is a position file as for `rummikub solve` (or --table and
--rack; --initial if you have not opened yet). The tiles you cannot
see must add up: pool + the opponents' racks.
\b
Examples:
  rummikub advise position.txt --players 4 --pool 40 --opponents "6 9 11"
  rummikub advise --table 'k1-4 | o9-13' --rack 'o8 k13 j b2 r5 r6' --opponents 14
  rummikub advise position.txt --opponents "6 9 11" --time 30 --json
  rummikub advise position.txt --opponents "6 9 11" --executor ray
""",
)
@click.argument("position", required=False, metavar="[POSITION]")
@table_rack_options("You have not made your opening meld yet.")
@click.option(
    "--players",
    type=click.IntRange(2, 4),
    default=None,
    help="Players at the table, you included (default: one more than --opponents).",
)
@click.option(
    "--opponents",
    required=True,
    metavar="SIZES",
    help="The opponents' rack sizes in turn order after you, e.g. '6 9 11'.",
)
@click.option(
    "--pool",
    type=click.IntRange(min=0),
    default=None,
    help="Tiles left to draw (default: the unseen tiles the opponents do not hold).",
)
@rollout_options
@rules_options
@json_option()
@_guard
def advise(
    position: str | None,
    table: str | None,
    rack: str | None,
    initial: bool,
    players: int | None,
    opponents: str,
    pool: int | None,
    model: str,
    rollouts: int,
    seconds: float | None,
    seed: int,
    jobs: int | None,
    executor: str,
    ray_address: str | None,
    as_json: bool,
    rules: RuleSet,
) -> None:
    from rummikub.analysis.advice import Situation
    from rummikub.cli.main import _load_position

    sizes = _sizes(opponents)
    if players is not None and players != len(sizes) + 1:
        fail(f"--players {players} but --opponents gives {len(sizes)} rack sizes")
    # A position file's own rules hold, the rule options over them (else the standard game).
    loaded = _load_position(position, table, rack, initial, "auto", rules)
    give_advice(
        Situation.of(loaded, sizes, pool),
        model=model,
        rollouts=rollouts,
        seconds=seconds,
        seed=seed,
        jobs=jobs,
        executor=executor,
        ray_address=ray_address,
        as_json=as_json,
    )
