"""Cold-process timing: ``rummikub solve FILE`` vs an equivalent one-shot peer script.

Usage::

    python benchmarks/bench_cold.py               # 15 runs of everything
    python benchmarks/bench_cold.py --runs 10 --json cold.json

Every measurement is the wall time of a fresh process started with ``subprocess.run``
(interpreter start, imports, parsing, solving, printing), runs interleaved so that drift
of the machine hits every command alike, one untimed run of each first (to fill the OS
file cache and write .pyc files). Measured:

* ``python -c pass``: the interpreter's own start-up, the floor of every figure;
* ``rummikub --help``;
* ``rummikub solve FILE`` for each position file;
* ``python -c <peer script>`` that imports ``rummikub_solver``, builds the GameState with
  the position's tile ids and solves it in TILE_COUNT mode, printing the count;
* ``python -c <library script>``: the same one-shot through our library (no CLI).

Positions: the examples/*.txt files that are not initial-meld positions, plus two
generated ones (about 40 and about 90 tiles in play) written to a temporary folder.
If the ``rummikub`` command is missing or broken the CLI rows are skipped (and said so).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import fmt_ms, peer_tile_id, peer_version, table, tiles_in_play

from rummikub.models.generate import random_position
from rummikub.models.position import Position

ROOT = Path(__file__).resolve().parent.parent

PEER_SCRIPT = """\
import rummikub_solver as rs
rules = rs.RuleSet(solver_backend={backend})
state = rules.new_game()
state.initial = False
state.add_table(*{table})
state.add_rack(*{rack})
solution = rules.solve(state, rs.SolverMode.TILE_COUNT)
print(0 if solution is None else len(solution.tiles))
"""

OURS_SCRIPT = """\
import sys
import rummikub
move = rummikub.solve(rummikub.Position.parse(open(sys.argv[1]).read()))
print(move.placed_count)
"""


@dataclass
class Command:
    """One command line to time."""

    label: str
    argv: list[str]
    times: list[float] = field(default_factory=list)
    output: str = ""
    error: str = ""


def find_cli() -> str | None:
    """The ``rummikub`` executable next to this interpreter, or on PATH."""
    beside = Path(sys.executable).parent / "rummikub"
    if beside.exists():
        return str(beside)
    return shutil.which("rummikub")


def cli_works(cli: str) -> str:
    """Empty when ``rummikub --help`` runs; else why not."""
    try:
        done = subprocess.run([cli, "--help"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as error:
        return str(error)
    if done.returncode != 0:
        return f"exit {done.returncode}: {done.stderr.strip()[:200]}"
    return ""


def load_text(path: Path) -> Position | None:
    """A non-initial position from a text file, or None if the file does not parse."""
    try:
        position = Position.parse(path.read_text())
    except Exception:
        return None
    return None if position.initial else position


def positions(folder: Path) -> list[tuple[str, Path, Position]]:
    """Example files plus two generated positions written into ``folder``."""
    out = []
    for path in sorted((ROOT / "examples").glob("*.txt")):
        position = load_text(path)
        if position is not None:
            out.append((f"examples/{path.name}", path, position))
    for name, table_tiles, seed in (("gen-40", 26, 11), ("gen-90", 76, 12)):
        position = random_position(seed, table_tiles=table_tiles, joker_rate=0.15)
        path = folder / f"{name}.txt"
        path.write_text(position.to_text())
        out.append((f"{name} ({tiles_in_play(position)} tiles)", path, position))
    return out


def peer_command(position: Position, backend: str) -> list[str]:
    """A ``python -c`` command solving the position with the peer."""
    script = PEER_SCRIPT.format(
        backend="None" if backend == "default" else f"rs.MILPSolver.{backend}",
        table=[peer_tile_id(t) for t in position.table_tiles()],
        rack=[peer_tile_id(t) for t in position.rack],
    )
    return [sys.executable, "-c", script]


def time_all(commands: list[Command], runs: int) -> None:
    """One untimed run each, then ``runs`` timed rounds over all commands."""
    env = dict(os.environ)
    for round_ in range(runs + 1):
        for command in commands:
            if command.error:
                continue
            started = time.perf_counter()
            done = subprocess.run(command.argv, capture_output=True, text=True, env=env)
            elapsed = time.perf_counter() - started
            if done.returncode != 0:
                command.error = f"exit {done.returncode}: {done.stderr.strip()[-300:]}"
                continue
            command.output = done.stdout
            if round_ > 0:
                command.times.append(elapsed)
        print(f"  round {round_}/{runs}", file=sys.stderr, flush=True)


def median(times: list[float]) -> float:
    """Median, NaN when there are none."""
    return statistics.median(times) if times else float("nan")


Case = tuple[str, Command | None, Command, Command | None]
HEADERS = [
    "command / position",
    "rummikub solve",
    "library -c",
    "peer -c",
    "cli/peer",
    "lib/peer",
    "same count",
]


def case_commands(
    cases: list[tuple[str, Path, Position]], cli: str | None, peer_backend: str | None
) -> list[Case]:
    """For each position: our CLI (when it works), our library one-shot, the peer (if any)."""
    per_case: list[Case] = []
    for label, path, position in cases:
        ours = Command(f"rummikub solve {label}", [cli, "solve", str(path)]) if cli else None
        lib = Command(f"library one-shot {label}", [sys.executable, "-c", OURS_SCRIPT, str(path)])
        peer = (
            Command(f"peer one-shot {label}", peer_command(position, peer_backend))
            if peer_backend is not None
            else None
        )
        per_case.append((label, ours, lib, peer))
    return per_case


def case_row(case: Case) -> tuple[list[str], dict[str, object]]:
    """The table row and the JSON record of one position's timings."""
    label, ours, lib, peer = case
    o = median(ours.times) if ours else float("nan")
    li = median(lib.times)
    p = median(peer.times) if peer else float("nan")
    agree = ""
    if peer and peer.output and lib.output:
        # the last word: HiGHS prints a banner on stdout before the peer's count
        agree = "yes" if peer.output.split()[-1:] == lib.output.split()[-1:] else "NO"
    row = [
        label,
        fmt_ms(o),
        fmt_ms(li),
        fmt_ms(p),
        f"{o / p:.2f}" if ours and peer else "-",
        f"{li / p:.2f}" if peer else "-",
        agree,
    ]
    record: dict[str, object] = {
        "position": label,
        "cli_ms": [round(t * 1000, 1) for t in ours.times] if ours else None,
        "library_ms": [round(t * 1000, 1) for t in lib.times],
        "peer_ms": [round(t * 1000, 1) for t in peer.times] if peer else None,
        "count_agrees": agree,
    }
    return row, record


def write_json(
    path: Path,
    args: argparse.Namespace,
    floor: Command,
    help_cmd: Command | None,
    results: list[dict[str, object]],
) -> None:
    """The results as JSON, with the versions they were measured with."""
    import ortools

    summary = {
        "python": platform.python_version(),
        "ortools": ortools.__version__,  # type: ignore[attr-defined]
        "peer": peer_version(),
        "runs": args.runs,
        "peer_backend": args.peer_backend,
        "python_start_ms": round(median(floor.times) * 1000, 1),
        "help_ms": round(median(help_cmd.times) * 1000, 1) if help_cmd else None,
        "positions": results,
    }
    path.write_text(json.dumps(summary, indent=2) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="timed runs of each command")
    parser.add_argument("--json", type=Path, help="also write the results to this file")
    parser.add_argument(
        "--peer-backend",
        default="SCIPY",
        help="the peer's MILP backend, or 'default' for its own choice",
    )
    args = parser.parse_args(argv)

    cli = find_cli()
    cli_problem = "not installed" if cli is None else cli_works(cli)
    have_peer = peer_version() != "not installed"
    floor = Command("python -c pass", [sys.executable, "-c", "pass"])
    help_cmd = Command("rummikub --help", [cli, "--help"]) if cli and not cli_problem else None
    with tempfile.TemporaryDirectory(prefix="rummikub-cold-") as tmp:
        per_case = case_commands(
            positions(Path(tmp)),
            cli if not cli_problem else None,
            args.peer_backend if have_peer else None,
        )
        commands = [floor, *([help_cmd] if help_cmd else [])]
        commands += [c for _, *runs in per_case for c in runs if c is not None]
        time_all(commands, args.runs)

    rows = [["python -c pass", fmt_ms(median(floor.times)), "", "", "", "", ""]]
    if help_cmd is not None:
        rows.append(["rummikub --help", fmt_ms(median(help_cmd.times)), "", "", "", "", ""])
    done = [case_row(case) for case in per_case]
    rows += [row for row, _ in done]
    print(
        f"cold-process wall times, median of {args.runs} runs, ms; peer backend {args.peer_backend}"
    )
    print()
    print(table(rows, HEADERS))
    if cli_problem:
        print(f"\nthe rummikub command was skipped: {cli_problem}")
    if not have_peer:
        print("\nrummikub_solver is not installed: no peer figures")
    errors = [c for c in commands if c.error]
    for c in errors:
        print(f"\nFAILED {c.label}: {c.error}")
    if args.json:
        write_json(args.json, args, floor, help_cmd, [record for _, record in done])
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
