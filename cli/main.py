"""The ``rummikub`` command: a thin click layer over the library.

Exit status: 0 solved (also when nothing can be placed), 1 a bug (one line with the position
as JSON, to report), 2 bad input.
The solver (and OR-Tools) is imported only when a command needs it, so ``--help`` is fast.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

import click

from rummikub.cli.errors import InputError, OneLineGroup, answering, check_writable
from rummikub.cli.errors import fail as _fail
from rummikub.cli.errors import guard as _guard
from rummikub.cli.options import (
    apply,
    backend_option,
    color_option,
    json_option,
    objective_options,
    table_rack_options,
    time_limit_option,
)
from rummikub.cli.rule_options import (
    RULES_HELP,
    rules_for,
    rules_options,
    standard_rules_options,
)
from rummikub.models.rules import STANDARD

if TYPE_CHECKING:
    from rummikub.models.position import Position
    from rummikub.models.rules import RuleSet, RuleValue
    from rummikub.solver import Move

EMPTY_RACK = "Nothing to place: the rack is empty."
MAX_INPUT_BYTES = 1_000_000  # a legal position is about 1 KB; refuse megabytes before parsing
F = TypeVar("F", bound=Callable[..., Any])


def _decode(data: bytes, what: str = "input") -> str:
    """Input bytes as text, or a library error: too large for any position, or not UTF-8."""
    from rummikub.models.errors import RummikubError

    if len(data) > MAX_INPUT_BYTES:
        raise RummikubError(f"{what} of {len(data)} bytes is larger than any legal position")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise RummikubError(f"not UTF-8 text (bad byte at offset {error.start})") from None


def _read_source(path: str) -> tuple[str, str]:
    from rummikub.models.errors import RummikubError

    name = "stdin" if path == "-" else path
    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        else:
            with open(path, "rb") as handle:
                data = handle.read(MAX_INPUT_BYTES + 1)
        return _decode(data), name
    except OSError as error:
        _fail(f"cannot read {path}: {error.strerror or error}")
    except RummikubError as error:
        _fail(f"{name}: {error}")


def _load_position(
    source: str | None,
    table: str | None,
    rack: str | None,
    initial: bool,
    fmt: str,
    rules: RuleSet | None = None,
) -> Position:
    """The position of a file (or stdin) or of --table/--rack, under the rules it says it is
    played under with the command line's rule options over them."""
    from rummikub.models import RummikubError, parse_melds, parse_tiles
    from rummikub.models.position import Position, position_from_json, position_from_text
    from rummikub.models.position_format import load_json, rules_in_json, rules_in_text

    try:
        if source is not None:
            if table is not None or rack is not None:
                _fail("give a position file or --table/--rack, not both")
            text, name = _read_source(source)
            try:
                if fmt == "json" or (fmt == "auto" and text.lstrip().startswith("{")):
                    data = load_json(text)
                    position = position_from_json(data, rules_for(rules_in_json(data), rules))
                else:
                    position = position_from_text(text, rules_for(rules_in_text(text), rules))
            except RummikubError as error:
                _fail(f"{name}: {error}")
            if initial and not position.initial:
                position = Position(position.table, position.rack, True, position.rules)
            return position
        if table is None and rack is None:
            _fail("no position given: pass a FILE (or - for stdin), or --table and/or --rack")
        rules = rules_for(None, rules)
        try:
            melds = parse_melds(table or "", rules)
        except RummikubError as error:
            _fail(f"--table: {error}")
        try:
            tiles = parse_tiles(rack or "", rules)
        except RummikubError as error:
            _fail(f"--rack: {error}")
        try:
            return Position.of(melds, tiles, initial, rules=rules)
        except RummikubError as error:
            _fail(str(error))
    except RecursionError:
        _fail("input nested too deeply")


@click.group(
    cls=OneLineGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(package_name="rummikub")
def main() -> None:
    """Best-move solver for Rummikub: exact integer programming, proved optimal.

    \b
    Notation: tiles r10 b3 k7 o1 (red blue black orange; y = orange), j = joker;
    runs r3-7, groups rbk5 (= r5 b5 k5); melds separated by |, ; or newlines.

    \b
    Examples:
      rummikub solve examples/midgame.txt
      rummikub solve --table "k1-4 | o9-13 | rbk7" --rack "o8 k13 j b2"
      rummikub solve --initial --rack "r10 r11 r12 b3 k3 o3 j"
      rummikub check examples/midgame.txt
    """


_POSITION_HELP = """

\b
POSITION is a file in the text format or JSON (- reads stdin), or give
--table/--rack instead. Text format:
  rules: american joker_rule=strict (optional; else the standard game)
  table: r1 r2 r3 | b5-7 | rbk9     (or one meld per line after 'table:')
  rack: k4 k5 o9 j
  initial: yes                      (opening meld still to make)
JSON: {"table": [["r1","r2","r3"], ["b5","b6","b7"]], "rack": ["k4","j"], "initial": false}
(optionally with "rules": "american" or {"preset": "wrap", "joker_rule": "strict"})
"""


_RULES_HELP = RULES_HELP
_rules_options = rules_options


def _solver_options(func: F) -> F:
    """--time-limit (the whole answer's wall clock) and --backend, on every command that
    solves."""
    return time_limit_option("answer")(backend_option(func))


def _position_options(func: F) -> F:
    threshold = STANDARD.initial_threshold
    return apply(
        func,
        [
            click.argument("position", required=False, metavar="[POSITION]"),
            table_rack_options(
                "The opening meld is still to make: rack tiles only, worth at least the "
                f"threshold ({threshold} in the standard game)."
            ),
            click.option(
                "--format",
                "fmt",
                type=click.Choice(["auto", "text", "json"]),
                default="auto",
                show_default=True,
                help="Format of POSITION (auto: JSON if it starts with '{').",
            ),
        ],
    )


@main.command(
    help="Find the best move for a position."
    + _POSITION_HELP
    + _RULES_HELP
    + """
\b
Best means, in order: most rack tiles placed, then most value placed,
then fewest table tiles moved. --objective value puts value first.
--keep-jokers counts only real tiles and plays a joker only when it
lets more real tiles go down.

\b
Examples:
  rummikub solve examples/midgame.txt
  rummikub solve --table "r3 r4 r5" --rack "r2 b5 k5"
  rummikub solve --initial --rack "r10 r11 j k2 b5"
  rummikub solve examples/jokers.txt --joker-rule strict --svg table.svg
  rummikub solve examples/midgame.txt --png table.png

\b
Exit status: 0 solved (also when nothing can be placed: draw),
2 bad input (one line on stderr), 1 a bug (one line with the
position as JSON, to report).
"""
)
@_position_options
@_rules_options
@objective_options
@_solver_options
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=64),
    default=1,
    show_default=True,
    help="Solver threads (1 is deterministic).",
)
@click.option(
    "--top",
    type=click.IntRange(min=1, max=100),
    default=None,
    help="Show the K best structurally different moves, and whether the best is unique.",
)
@click.option(
    "--steps/--no-steps",
    default=True,
    show_default=True,
    help="Show (or hide) the steps that carry the move out.",
)
@json_option()
@click.option(
    "--jsonl",
    is_flag=True,
    help="Read JSON positions one per line (POSITION or stdin); print one JSON result per line.",
)
@color_option
@click.option(
    "--svg",
    "svg_path",
    type=click.Path(),
    default=None,
    help="Also draw the new table as an SVG picture in this file (rack tiles highlighted, "
    "jokers labelled with what they stand for).",
)
@click.option(
    "--png",
    "png_path",
    type=click.Path(),
    default=None,
    help="Also draw the new table, as --svg does, as a PNG image in this file (needs Pillow: "
    "pip install 'rummikub[plot]').",
)
@_guard
def solve(
    position: str | None,
    table: str | None,
    rack: str | None,
    initial: bool,
    fmt: str,
    objective: str,
    keep_jokers: bool,
    time_limit: float,
    workers: int,
    backend: str,
    top: int | None,
    steps: bool,
    as_json: bool,
    jsonl: bool,
    color: bool | None,
    rules: RuleSet,
    svg_path: str | None = None,
    png_path: str | None = None,
) -> None:
    import functools

    from rummikub.solver import Limit, solve_top
    from rummikub.solver import solve as solve_with
    from rummikub.solver.engine import load_backend

    load_backend(backend)  # a missing package is reported before any input is read
    if png_path is not None:
        from rummikub.picture.svg import require_pillow

        require_pillow()
    for option, picture in (("--svg", svg_path), ("--png", png_path)):
        if picture is not None:  # a bad path is reported before the solve
            check_writable(picture, option)
    best_move = functools.partial(solve_with, backend=backend)
    limit = Limit(seconds=time_limit, workers=workers)
    if jsonl:
        if table is not None or rack is not None:
            _fail("--jsonl reads positions from POSITION or stdin, not --table/--rack")
        if top is not None or svg_path is not None or png_path is not None:
            _fail("--top, --svg and --png work on one position, not with --jsonl")
        bad = _solve_lines(position or "-", initial, objective, keep_jokers, limit, backend, rules)
        sys.exit(2 if bad else 0)
    pos = _load_position(position, table, rack, initial, fmt, rules)
    from rummikub.cli.render import render_move, render_ranked
    from rummikub.steps.report import move_json, ranked_json

    if not pos.rack and not as_json:
        click.echo(EMPTY_RACK)
        return
    with answering(pos):
        if top is not None:
            ranked = solve_top(
                pos, top, objective=objective, keep_jokers=keep_jokers, limit=limit, backend=backend
            )
            if as_json:
                click.echo(json.dumps(ranked_json(ranked)))
            else:
                click.echo(render_ranked(ranked, steps), color=color)
            if ranked.moves:
                _draw(ranked.moves[0], svg_path, png_path)
            return
        move = best_move(pos, objective=objective, keep_jokers=keep_jokers, limit=limit)
        if as_json:
            click.echo(json.dumps(move_json(move, steps=steps)))
        else:
            click.echo(render_move(move, steps=steps), color=color)
        _draw(move, svg_path, png_path)  # after the answer: a failed write cannot lose it


def _draw(move: Move, svg_path: str | None, png_path: str | None) -> None:
    """Write the pictures of the move that were asked for."""
    from rummikub.cli.render import move_png, move_svg

    if svg_path is not None:
        _write(svg_path, move_svg(move))
    if png_path is not None:
        _write(png_path, move_png(move))


def _write(path: str, content: str | bytes) -> None:
    binary = isinstance(content, bytes)
    try:
        with open(path, "wb" if binary else "w", encoding=None if binary else "utf-8") as handle:
            handle.write(content)
    except OSError as error:
        _fail(f"cannot write {path}: {error.strerror or error}")


def _lines(path: str) -> Iterator[bytes]:
    if path == "-":
        yield from sys.stdin.buffer
        return
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below; open errors become exit 2
    except OSError as error:
        _fail(f"cannot read {path}: {error.strerror or error}")
    with handle:
        yield from handle


def _solve_lines(
    path: str,
    initial: bool,
    objective: str,
    keep_jokers: bool,
    limit: Any,
    backend: str,
    rules: RuleSet | None = None,
) -> int:
    """Solve a JSON Lines batch, a bad line yielding an error object; returns the bad count."""
    from rummikub.models import RummikubError, position_from_json
    from rummikub.models.position import Position
    from rummikub.models.position_format import load_json, rules_in_json
    from rummikub.solver import solve as best_move
    from rummikub.steps.report import move_json

    bad = 0
    for number, raw in enumerate(_lines(path), 1):
        try:
            text = _decode(raw, "line")
            if not text.strip():
                raise RummikubError("empty line: expected a JSON position")
            data = load_json(text)
            position = position_from_json(data, rules_for(rules_in_json(data), rules))
            if initial and not position.initial:
                position = Position(position.table, position.rack, True, position.rules)
            with answering(position):
                result = move_json(
                    best_move(
                        position,
                        objective=objective,
                        keep_jokers=keep_jokers,
                        limit=limit,
                        backend=backend,
                    )
                )
        except RummikubError as error:
            bad += 1
            result = {"error": " ".join(str(error).split()), "line": number}
        except RecursionError:
            bad += 1
            result = {"error": "input nested too deeply", "line": number}
        click.echo(json.dumps(result))
    return bad


@main.command(
    help="Analyse a position: best moves, outs and odds, unplayable tiles."
    + _POSITION_HELP
    + _RULES_HELP
    + """
\b
Reports the best move under each objective (tiles, value, keep-jokers) with
its table disruption; for every tile you might draw (the unseen tiles: the
full set minus table and rack), how many tiles the best move would then place
and whether you could go out; the exact chance of going out next turn after
one draw (table unchanged); and rack tiles no legal move can place.
"""
)
@_position_options
@_rules_options
@_solver_options
@json_option()
@color_option
@_guard
def analyze(
    position: str | None,
    table: str | None,
    rack: str | None,
    initial: bool,
    fmt: str,
    time_limit: float,
    backend: str,
    as_json: bool,
    color: bool | None,
    rules: RuleSet,
) -> None:
    from rummikub.analysis.position import analyze as analyse_position
    from rummikub.solver import Limit
    from rummikub.solver.engine import load_backend

    load_backend(backend)
    pos = _load_position(position, table, rack, initial, fmt, rules)
    with answering(pos):
        result = analyse_position(pos, limit=Limit(seconds=time_limit), backend=backend)
        if as_json:
            click.echo(json.dumps(result.to_json()))
        else:
            from rummikub.cli.render import render_analysis

            click.echo(render_analysis(result), color=color)


@main.command(
    help="Check that a position is legal (every meld, tile counts, jokers)."
    + _POSITION_HELP
    + _RULES_HELP
    + """
\b
Exit status: 0 legal, 2 illegal or unreadable (the reason on stderr;
with --json also {"legal": false, "reason": ...} on stdout).
"""
)
@_position_options
@_rules_options
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
@_guard
def check(
    position: str | None,
    table: str | None,
    rack: str | None,
    initial: bool,
    fmt: str,
    as_json: bool,
    rules: RuleSet,
) -> None:
    try:
        pos = _load_position(position, table, rack, initial, fmt, rules)
    except InputError as error:
        if as_json:  # the verdict as JSON on stdout too; the reason on stderr as always
            click.echo(json.dumps({"legal": False, "reason": error.format_message()}))
        raise
    if as_json:
        payload = {"legal": True, **pos.to_json()}
        click.echo(json.dumps(payload))
    else:
        from rummikub.cli.render import render_check

        click.echo(render_check(pos))


def _yes_no(value: RuleValue) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _options_text(options: dict[str, RuleValue]) -> str:
    return ", ".join(f"{name} {_yes_no(value)}" for name, value in options.items())


@main.command(
    name="rules",
    help="""List the rule presets and what each sets, or show the rules selected.

\b
Use a preset with --rules NAME on solve, check, analyze and arena, put a
'rules:' line in a position file (rules: american joker_rule=strict), or
write a rules file (TOML or JSON) with any of the options below,
optionally on a preset, and pass --rules FILE:
  preset = "american"
  wrap = true
  joker_rule = "strict"
Single options (--wrap, --threshold 50, ...) override.
With --rules or an override this command prints the rules they select.
""",
)
@standard_rules_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@_guard
def rules_command(as_json: bool, rules: RuleSet) -> None:
    import textwrap

    from rummikub.models.presets import PRESETS, rules_line

    if click.get_current_context().meta.get("rules_given"):
        if as_json:
            selected = {"rules": rules.options(), "changes": rules.changes()}
            click.echo(json.dumps(selected | {"line": rules_line(rules)}))
            return
        click.echo("Rules: " + _options_text(rules.options()))
        changes = rules.changes()
        click.echo("Differs from standard: " + (_options_text(changes) if changes else "nothing"))
        click.echo(f"In a position file: rules: {rules_line(rules)}")
        return
    if as_json:
        payload = {
            "presets": [
                {
                    "name": p.name,
                    "aliases": list(p.aliases),
                    "description": p.description,
                    "rules": p.rules.options(),
                    "changes": p.rules.changes(),
                }
                for p in PRESETS.values()
            ]
        }
        click.echo(json.dumps(payload))
        return
    width = max(len(name) for name in PRESETS)
    indent = " " * (width + 4)
    lines = ["Rule presets (--rules NAME, or a 'rules: NAME' line in a position file):"]
    for p in PRESETS.values():
        text = textwrap.fill(
            p.description, 96, initial_indent=f"  {p.name:<{width}}  ", subsequent_indent=indent
        )
        lines.append(text)
        if p.aliases:
            lines.append(f"{indent}also: {', '.join(p.aliases)}")
        changes = p.rules.changes()
        if changes:
            sets = _options_text(changes) + " (the rest as standard)"
        elif p.name == "standard":
            sets = _options_text(p.rules.options())
        else:
            sets = "the same options as standard (written back as 'standard')"
        lines.append(
            textwrap.fill(f"sets: {sets}", 96, initial_indent=indent, subsequent_indent=indent)
        )
    lines += [
        "",
        "House rules and options on any preset: --threshold 50 (an opening meld worth 50),",
        "--wrap (runs round the top), --joker-rule strict|locked (the official table-joker",
        "rule, or its looser form); 'rummikub solve --help' lists every option.",
    ]
    click.echo("\n".join(lines))


def _register_arena() -> None:
    from rummikub.cli.arena import arena  # imports only click; the arena loads when run

    main.add_command(arena)


_register_arena()
main.add_command(importlib.import_module("rummikub.cli.advise").advise)
main.add_command(importlib.import_module("rummikub.cli.game").game)
main.add_command(importlib.import_module("rummikub.cli.review").review)
main.add_command(importlib.import_module("rummikub.cli.odds").odds)
main.add_command(importlib.import_module("rummikub.cli.serve").serve)


def run() -> None:
    """The ``rummikub`` program: the command line in a process of its own, where Python's
    collector may come rarely (:mod:`rummikub.solver.collector`)."""
    from rummikub.solver.collector import collect_rarely  # not on every import of the CLI

    collect_rarely()
    try:
        main()
    except KeyboardInterrupt:  # a Ctrl-C before a command's own handling began (cli.interrupt)
        from rummikub.cli.interrupt import EXIT_STATUS, announce

        announce()
        sys.exit(EXIT_STATUS)


if __name__ == "__main__":  # pragma: no cover
    run()
