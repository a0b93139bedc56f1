"""The command line: outputs, exit statuses, JSON schema, batches, and errors without tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rummikub.cli.main import main
from rummikub.models import Meld, Tile, parse_tiles, position_from_json, position_from_text
from rummikub.models.validation import move_problems

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# The documented schema of `rummikub solve --json`: key -> type (lists hold strings unless noted).
SOLVE_SCHEMA: dict[str, type | tuple[type, ...]] = {
    "status": str,
    "objective": str,
    "keep_jokers": bool,
    "initial": bool,
    "draw": bool,
    "placed": list,
    "placed_count": int,
    "placed_value": int,
    "table": list,
    "melds": list,
    "jokers": list,
    "rack": list,
    "moved": int,
    "moved_tiles": list,
    "moved_proved": bool,
    "scores": dict,
    "steps": list,
    "seconds": (int, float),
}
STEP_ACTIONS = {"play", "extend", "take", "split", "join", "swap", "trade", "rearrange"}


def run(*args: str, stdin: str | bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def check_schema(payload: dict[str, object]) -> None:
    assert set(SOLVE_SCHEMA) <= set(payload), set(SOLVE_SCHEMA) - set(payload)
    for key, kind in SOLVE_SCHEMA.items():
        assert isinstance(payload[key], kind), (key, payload[key])
    assert payload["status"] in ("optimal", "feasible")
    for key in ("placed", "rack", "moved_tiles"):
        assert all(isinstance(t, str) for t in payload[key])  # type: ignore[attr-defined]
    for meld in payload["table"]:  # type: ignore[attr-defined]
        assert isinstance(meld, list) and all(isinstance(t, str) for t in meld)
    for meld in payload["melds"]:  # type: ignore[attr-defined]
        assert meld["origin"] in ("kept", "extended", "new", "rebuilt")
        assert meld["source"] is None or isinstance(meld["source"], int)
        assert len(meld["provenance"]) == len(meld["tiles"])
        assert all(s == "rack" or isinstance(s, int) for s in meld["provenance"])
        assert meld["placed"] == [
            t for t, s in zip(meld["tiles"], meld["provenance"], strict=True) if s == "rack"
        ]
    for step in payload["steps"]:  # type: ignore[attr-defined]
        assert step["action"] in STEP_ACTIONS
    for joker in payload["jokers"]:  # type: ignore[attr-defined]
        assert payload["table"][joker["meld"]][joker["position"]] == "j"  # type: ignore[index]
        assert joker["stands_for"] and all(isinstance(t, str) for t in joker["stands_for"])
    assert payload["placed_count"] == len(payload["placed"])  # type: ignore[arg-type]
    assert payload["moved"] == len(payload["moved_tiles"])  # type: ignore[arg-type]
    if payload["draw"]:  # a draw leaves the table as it was
        assert payload["moved"] == 0 and payload["placed"] == [] and payload["steps"] == []


def validate_payload(position_obj: dict[str, object], payload: dict[str, object]) -> None:
    position = position_from_json(position_obj)
    melds = [Meld(tuple(Tile.parse(t) for t in meld)) for meld in payload["table"]]  # type: ignore[attr-defined]
    placed = [Tile.parse(t) for t in payload["placed"]]  # type: ignore[attr-defined]
    assert move_problems(position, melds, placed) == []


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.txt")))
def test_every_example_solves_to_a_legal_move(example: str) -> None:
    code, out, err = run("solve", str(EXAMPLES / example), "--json")
    assert code == 0, err
    payload = json.loads(out)
    check_schema(payload)
    position = position_from_text((EXAMPLES / example).read_text())
    validate_payload(position.to_json(), payload)
    assert payload["status"] == "optimal"


def test_issue_example_table_and_rack() -> None:
    code, out, _ = run("solve", "--table", "k1-4 | o9-13 | rbk7", "--rack", "o8 k13 j b2", "--json")
    assert code == 0
    payload = json.loads(out)
    check_schema(payload)
    assert payload["placed_count"] == 3
    assert sorted(payload["placed"]) == ["j", "k13", "o8"]
    assert payload["rack"] == ["b2"]


def test_initial_meld_from_the_command_line() -> None:
    code, out, _ = run("solve", "--initial", "--rack", "r10 r11 r12 b3 k3 o3 j", "--json")
    assert code == 0
    payload = json.loads(out)
    assert payload["initial"] is True
    assert payload["placed_count"] == 7 and payload["rack"] == []


def test_impossible_initial_meld_is_a_draw_with_exit_0() -> None:
    code, out, _ = run("solve", "--initial", "--rack", "r1 r2 r3 k5")
    assert code == 0
    assert "No move" in out and "Draw" in out


def test_human_output_marks_placed_tiles_and_origins() -> None:
    code, out, _ = run("solve", str(EXAMPLES / "midgame.txt"), "--no-color")
    assert code == 0
    assert "proved optimal" in out
    assert "kept" in out and "extended" in out
    assert "o8*" in out  # placed tiles are starred
    assert "\x1b[" not in out  # plain when asked


def test_colour_output_when_forced() -> None:
    code, out, _ = run("solve", str(EXAMPLES / "midgame.txt"), "--color")
    assert code == 0
    assert "\x1b[" in out


def test_json_from_stdin() -> None:
    text = (EXAMPLES / "midgame.json").read_text()
    code, out, _ = run("solve", "-", "--json", stdin=text)
    assert code == 0
    payload = json.loads(out)
    check_schema(payload)
    validate_payload(json.loads(text), payload)


def test_jsonl_batch_one_line_per_input_and_errors_in_place() -> None:
    lines = (EXAMPLES / "batch.jsonl").read_text().splitlines()
    garbage = ["not json", '{"rack": ["x1"]}', "", '{"table": [["r1", "r2"]]}']
    batch = [lines[0], garbage[0], lines[1], garbage[1], garbage[2], lines[2], garbage[3]]
    code, out, _ = run("solve", "--jsonl", stdin="\n".join(batch) + "\n")
    results = [json.loads(line) for line in out.splitlines()]
    assert len(results) == len(batch)
    assert code == 2
    for number, (line, result) in enumerate(zip(batch, results, strict=True), 1):
        if line in garbage:
            assert result["line"] == number and isinstance(result["error"], str)
            assert "\n" not in result["error"]
        else:
            check_schema(result)
            validate_payload(json.loads(line), result)


def test_jsonl_all_good_exits_0() -> None:
    code, out, _ = run("solve", "--jsonl", str(EXAMPLES / "batch.jsonl"))
    assert code == 0
    assert len(out.splitlines()) == 3


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("solve", "--rack", "r1 x5"), "x5"),
        (("solve", "--rack", "r14"), "r14"),
        (("solve", "--rack", "r0"), "r0"),
        (("solve", "--table", "r1 r2 r4", "--rack", "k1"), "r1 r2 r4"),
        (("solve", "--table", "r1-3 | r1-3", "--rack", "r1"), "r1"),
        (("solve", "--rack", "j j j"), "jokers"),
        (("solve",), "no position"),
        (("solve", "/nonexistent/position.txt"), "cannot read"),
        (("check", "--table", "r5 b5 r5"), "r5"),
        (("solve", "--table", "r1 r2"), "too short"),
    ],
)
def test_bad_input_is_one_line_with_exit_2(args: tuple[str, ...], fragment: str) -> None:
    code, out, err = run(*args)
    assert code == 2, (out, err)
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert fragment in err
    assert "Traceback" not in err + out


@pytest.mark.parametrize(
    "stdin",
    [
        b"\xff\xfe\x00garbage",
        b'{"table": [["r1","r2","r3"]], "table": []}',
        b'{"table": 5}',
        b"[1, 2, 3]",
        b'{"rack": ["r1"], "initial": "maybe"}',
        b"table: r1 r2 r3\ntable: b1 b2 b3\n",
        b"rack: r1\nfoo: bar\n",
        b"[" * 100000,
    ],
)
def test_hostile_stdin_gets_exit_2_not_a_traceback(stdin: bytes) -> None:
    code, out, err = run("solve", "-", stdin=stdin)
    assert code == 2, (out, err)
    assert err.count("\n") == 1 and "Traceback" not in err


def test_check_legal_and_illegal() -> None:
    code, out, _ = run("check", str(EXAMPLES / "midgame.txt"))
    assert code == 0 and "legal position" in out
    code, out, _ = run("check", "--table", "k1-4", "--rack", "j", "--json")
    assert code == 0 and json.loads(out)["legal"] is True
    code, _, err = run("check", "--table", "k1 k2 k4")
    assert code == 2 and "k1 k2 k4" in err


def test_help_teaches_notation_and_formats() -> None:
    code, out, _ = run("solve", "--help")
    assert code == 0
    for word in ("rack:", "table:", "--objective", "--keep-jokers", "--time-limit", "Exit"):
        assert word in out


def test_installed_console_script_runs_as_a_process() -> None:
    # The real entry point, in a fresh process: --help must not import OR-Tools.
    code = (
        "import sys; from rummikub.cli.main import main\n"
        "sys.argv = ['rummikub', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "assert 'ortools' not in sys.modules, 'OR-Tools imported by --help'\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "solve" in result.stdout


def test_internal_error_is_exit_1_without_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    import rummikub.solver

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("simulated\nfailure")

    monkeypatch.setattr(rummikub.solver, "solve", broken)
    code, out, err = run("solve", "--rack", "r1 r2 r3", "--wrap")
    assert code == 1
    head, _, position = err.partition("; position: ")
    assert head == (
        "internal error (a bug in rummikub; please report this line): "
        "RuntimeError: simulated failure"
    )
    assert err.count("\n") == 1 and "Traceback" not in out + err
    # The position of the report reads back as the position that failed, rules and all.
    reported = position_from_json(json.loads(position))
    assert list(reported.rack) == parse_tiles("r1 r2 r3") and reported.rules.wrap


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "--table", "r5 j r7", "--rack", "r6 b1", "--joker-rule", "strict"],
        ["solve", "--rack", "r1 r2 r3", "--json"],
        ["solve", "--rack", "r1 r2 r3", "--top", "2"],
        ["analyze", "--rack", "r1 r2 r3", "--rules", "american"],
    ],
)
def test_a_library_error_on_an_accepted_position_is_a_bug(
    monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    """Once a position is read and legal, every error the library raises is a bug: exit 1,
    not the exit 2 of bad input, with the position to report."""
    import rummikub.analysis.position
    import rummikub.solver
    from rummikub.models.errors import SolverError

    def broken(*args: object, **kwargs: object) -> None:
        raise SolverError("new meld does not hold its old meld")

    for module, name in [
        (rummikub.solver, "solve"),
        (rummikub.solver, "solve_top"),
        (rummikub.analysis.position, "analyze"),
    ]:
        monkeypatch.setattr(module, name, broken)
    code, out, err = run(*args)
    assert code == 1, err
    assert err.startswith("internal error (a bug in rummikub; please report this line): ")
    assert "SolverError: new meld does not hold its old meld; position: {" in err
    assert err.count("\n") == 1 and out == ""


@pytest.mark.parametrize("extra", [[], ["--json"], ["--top", "2"]])
def test_an_illegal_answer_never_reaches_the_screen(
    monkeypatch: pytest.MonkeyPatch, extra: list[str]
) -> None:
    """A model or extraction bug that builds an illegal table (here: a set loses a tile)
    is caught by the validator inside ``solve``: exit 1 with the position, no move shown."""
    from rummikub.models import Meld
    from rummikub.solver.extraction import extract as real
    from rummikub.solver.move import NewMeld

    def lossy(*args: Any, **kwargs: Any) -> Any:
        table, placed = real(*args, **kwargs)
        first = table[0]
        short = NewMeld(Meld(first.meld.tiles[:2]), first.origin, first.source, first.from_rack[:2])
        return (short, *table[1:]), placed

    monkeypatch.setattr("rummikub.solver.engine.extract", lossy)
    code, out, err = run("solve", "--table", "r5 r6 r7", "--rack", "r8 b1", *extra)
    assert code == 1, err
    assert err.startswith("internal error (a bug in rummikub; please report this line): ")
    assert "the solver's move breaks the rules (a bug)" in err and "; position: {" in err
    assert out == ""


def test_bad_input_stays_exit_2() -> None:
    code, _, err = run("solve", "--rack", "r1 r2 r14")
    assert code == 2 and err.startswith("error: ") and "bug" not in err
    code, _, err = run("solve", "--rack", "r1 r2", "--rules", "nope")
    assert code == 2 and "'nope'" in err and "bug" not in err


def test_no_steps_leaves_them_out_of_json_and_human_output() -> None:
    code, out, _ = run("solve", str(EXAMPLES / "midgame.txt"), "--json", "--no-steps")
    assert code == 0 and "steps" not in json.loads(out)
    code, out, _ = run("solve", str(EXAMPLES / "midgame.txt"), "--no-color", "--no-steps")
    assert code == 0 and "Steps:" not in out
    code, out, _ = run("solve", str(EXAMPLES / "midgame.txt"), "--no-color")
    assert "Steps:" in out and "1. Play k11 j k13" in out and "2. Extend" in out


def test_no_joker_trade_that_would_take_a_joker_from_its_set_from_the_command_line() -> None:
    """Two melds that could hand each other a joker and its tile: under strict rules the
    joker of j r4 j may not leave r4 for the other run (it stays with its set), so the
    answer extends j r4 j with r6 and moves nothing (text and --json agree)."""
    position = (
        "rules: standard colours=3 numbers=8 jokers=3 joker_rule=strict\n"
        "table: j r4 j | r2 r3 r4 r5 j r7\nrack: r6\n"
    )
    code, out, _ = run("solve", "-", stdin=position)
    assert code == 0
    assert "Trade" not in out
    assert "1. Extend j r4 j with r6 → j=r3 r4 j=r5 r6" in out
    code, out, _ = run("solve", "-", "--json", stdin=position)
    assert code == 0
    payload = json.loads(out)
    check_schema(payload)
    assert payload["moved"] == 0
    assert [step["action"] for step in payload["steps"]] == ["extend"]


@pytest.mark.parametrize("rule", ["strict", "locked"])
def test_a_table_joker_is_listed_with_the_meaning_it_keeps(rule: str) -> None:
    """Under the strict and locked rules a table joker that stays stands for its old tile:
    the table listing and --json say that tile alone, and a rack joker beside it (starred,
    'rack' in the provenance) what is left."""
    kept = f"rules: standard joker_rule={rule}\ntable: k5 b5 r5 j | r6 r7 r8\nrack: r4\n"
    code, out, _ = run("solve", "-", stdin=kept)
    assert code == 0 and "k5 b5 j   j = o5; was 'k5 b5 r5 j'" in out
    payload = json.loads(run("solve", "-", "--json", stdin=kept)[1])
    assert [j["stands_for"] for j in payload["jokers"]] == [["o5"]]
    beside = f"rules: standard joker_rule={rule}\ntable: j b6 r6 o6 | k10 b10 r10 o10\nrack: k6 j\n"
    payload = json.loads(run("solve", "-", "--json", stdin=beside)[1])
    check_schema(payload)
    if rule == "locked":
        return  # locked may as well swap k6 in and free the joker, which then stands for any
    for joker in payload["jokers"]:
        meld = payload["melds"][joker["meld"]]
        source = meld["provenance"][joker["position"]]
        sixes = {f"{c}6" for c in "kbro"}
        missing = sorted(sixes - set(meld["tiles"]) - {"k6"}, key=lambda t: "kbro".index(t[0]))
        assert joker["stands_for"] == (missing if source == "rack" else ["k6"]), payload


def test_a_draw_leaves_the_table_as_it_lay() -> None:
    """Nothing to place under strict: the untouched table is listed as written and there
    are no steps (before, 'Lay j b6 r6 out as j=k6 b6 r6', twice)."""
    position = (
        "rules: american colours=3 numbers=7 jokers=3 joker_rule=strict\n"
        "table: j b6 r6 | j b6 r6 | r3 j r5\nrack: b7 k7 r1\n"
    )
    code, out, _ = run("solve", "-", stdin=position)
    assert code == 0 and "Draw a tile" in out and "Steps:" not in out
    assert out.count("kept      j b6 r6   j = k6") == 2 and "kept      r3 j r5   j = r4" in out
    payload = json.loads(run("solve", "-", "--json", stdin=position)[1])
    assert payload["steps"] == [] and payload["table"][:2] == [["j", "b6", "r6"]] * 2


@pytest.mark.parametrize(
    "position",
    [
        "rules: american joker_rule=strict\ntable: k9 k10 j | k2 b2 j\nrack: o6 b6 b3 k3\n",
        "rules: standard colours=3 numbers=8 jokers=3 joker_rule=strict\n"
        "table: j k4 k5 | j j r8 | k4 b4 r4\nrack: k6 k8 r7\n",
        "rules: standard joker_rule=strict\ntable: k13 j o13 | r5 r6 r7\n"
        "rack: b13 o13 k13 b9 r9 b2\n",
        "rules: american joker_rule=locked\ntable: k9 j k11\nrack: k10 o3 b3 k9 k11 o2 b8 j\n",
    ],
    ids=["draw", "move", "equal-group-from-the-rack", "equal-run-from-the-rack"],
)
def test_an_untouched_meld_with_an_ambiguous_joker_is_not_laid_out_anew(position: str) -> None:
    """'k9 k10 j' may mean k8 or k11; whatever the solver read, the meld is left as it lies:
    no 'Lay k9 k10 j out as j=k8 k9 k10' step (found by the review)."""
    code, out, _ = run("solve", "-", stdin=position)
    assert code == 0 and " out as " not in out, out
    written = position.split("table: ")[1].split("\n")[0].split(" | ")
    kept = [line[12:].split("   ")[0] for line in out.splitlines() if line.startswith("  kept ")]
    assert kept and all(meld in written for meld in kept), (kept, written)


@pytest.mark.parametrize("rule", ["strict", "locked"])
def test_a_kept_meld_lists_every_meaning_its_joker_still_has(rule: str) -> None:
    """An untouched group's joker may still be taken next turn with either missing colour:
    the listing says so, not just the one the solver read (found by the review)."""
    position = f"rules: standard joker_rule={rule}\ntable: j b6 r6 | k1 k2 k3\nrack: k4\n"
    code, out, _ = run("solve", "-", stdin=position)
    assert code == 0 and "kept      j b6 r6   j = k6 or o6" in out, out
    payload = json.loads(run("solve", "-", "--json", stdin=position)[1])
    assert [j["stands_for"] for j in payload["jokers"]] == [["k6", "o6"]]


def test_a_closed_pipe_is_no_bug() -> None:
    """`rummikub solve --jsonl … | head -1`: the reader stops, rummikub exits quietly."""
    lines = "".join(
        json.dumps({"table": [["r1", "r2", "r3"]], "rack": ["r4", f"k{n}"]}) + "\n"
        for n in (1 + k % 12 for k in range(300))  # more output than a pipe holds
    )
    command = [sys.executable, "-m", "rummikub.cli", "solve", "--jsonl"]
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(lines.encode())
        process.stdin.close()
        process.stdout.readline()
        process.stdout.close()  # as `head -1` does
        error = process.stderr.read().decode() if process.stderr else ""
        code = process.wait(timeout=60)
    assert code == 0 and "internal error" not in error, (code, error)


@pytest.mark.parametrize("rule", ["strict", "locked"])
def test_a_table_joker_stands_for_the_tile_whose_place_it_takes(rule: str) -> None:
    """Typed as it lies, j r4 r5 j is r3-6: r2 extends it, and no step swaps r2 for a
    joker (which would read the run as r2-5 and let the jokers change their tiles)."""
    table, rack = "j r4 r5 j", "r2 o13 o11"
    code, out, err = run("solve", "--table", table, "--rack", rack, "--joker-rule", rule, "--json")
    assert code == 0, err
    payload = json.loads(out)
    check_schema(payload)
    assert payload["placed"] == ["r2"] and payload["table"] == [["r2", "j", "r4", "r5", "j"]]
    assert [s["action"] for s in payload["steps"]] == ["extend"]
    code, out, _ = run("solve", "--table", table, "--rack", rack, "--joker-rule", rule)
    assert "j#2 = r3; j#5 = r6" in out and "Swap" not in out
    # r13 frees the joker of r10 r11 r12 j (it stands for r13); under strict the freed
    # joker has no new set to go to, under locked it lets k4 extend k6 k7 k8.
    table, rack = "r10 r11 r12 j | k6 k7 k8", "r13 k4"
    code, out, err = run("solve", "--table", table, "--rack", rack, "--joker-rule", rule, "--json")
    payload = json.loads(out)
    assert code == 0, err
    assert payload["placed_count"] == (0 if rule == "strict" else 2)
    if rule == "locked":
        assert payload["steps"][0]["action"] == "swap" and payload["steps"][0]["rack"] == ["r13"]


def test_two_jokers_sharing_a_groups_missing_colours_are_shown_together() -> None:
    code, out, _ = run("solve", "--table", "b5 b6 b7 j j", "--rack", "k3 r3", "--no-color")
    assert code == 0
    assert "rebuilt   k3* r3* j j   j#3, j#4 = b3 and o3" in out
    assert "rebuilt   b5 b6 b7   was 'b5 b6 b7 j j'" in out  # it only gave its jokers away


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["solve", "--top", "0"], "error: Invalid value for '--top': 0 is not in the range"),
        (["solve", "--nosuch"], "error: No such option '--nosuch' (see 'rummikub solve --help')"),
        (["nosuch"], "error: No such command 'nosuch' (see 'rummikub --help')"),
        (["odds", "--samples", "0"], "error: Invalid value for '--samples'"),
    ],
)
def test_an_option_click_refuses_is_one_line_too(args: list[str], line: str) -> None:
    # Found by review: the help promises one line on stderr for bad input, and click's own
    # refusals printed its usage block first.
    result = CliRunner().invoke(main, args, prog_name="rummikub")
    assert result.exit_code == 2
    assert result.stderr.startswith(line) and result.stderr.count("\n") == 1, result.stderr
    assert result.stdout == ""
