"""Table-ready answers (issue 12): moved means picked up, the headline, the opening meld
first, the picture, and help that keeps its examples."""

from __future__ import annotations

import io
import json
import random
import sys
from collections import Counter
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from click.testing import CliRunner

from rummikub.cli.main import main
from rummikub.models import Meld, RuleSet, position_from_text
from rummikub.models.generate import random_position
from rummikub.models.moves import becomes, picked_up
from rummikub.models.position import Position
from rummikub.picture import svg as picture
from rummikub.picture.svg import SVG_NS, TablePicture, table_svg
from rummikub.solver import Move, NewMeld, Origin, Status
from rummikub.solver.objectives import Objective
from rummikub.steps.planner import explanation
from rummikub.steps.replay import Play, replay

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


# --- moved means picked up ------------------------------------------------------------------


def _brute_force_picked_up(old: list[Meld], new: list[Meld]) -> int:
    """The fewest tiles picked up over every pairing of old melds to distinct new melds."""

    def most_staying(i: int, used: frozenset[int]) -> int:
        if i == len(old):
            return 0
        best = most_staying(i + 1, used)  # old meld i is taken apart
        for j in range(len(new)):
            if j not in used:
                stay = sum((old[i].counts() & new[j].counts()).values())
                best = max(best, stay + most_staying(i + 1, used | {j}))
        return best

    return sum(len(m) for m in old) - most_staying(0, frozenset())


@pytest.mark.slow
def test_picked_up_is_the_best_pairing_on_random_tables() -> None:
    rng = random.Random(12)
    rules = RuleSet(colours=3, numbers=6)
    checked = 0
    for seed in range(1_200):
        old = list(
            random_position(
                seed, table_tiles=rng.randint(3, 14), rack_tiles=0, rules=rules, joker_rate=0.25
            ).table
        )[:5]
        tiles = [t for m in old for t in m.tiles]
        rng.shuffle(tiles)
        # A "new table": the same tiles (and a few more) cut into pieces, sometimes equal
        # to old melds; the measure does not ask the pieces to be legal.
        new = [m for m in old if rng.random() < 0.3]
        rest = Counter(tiles) - Counter(t for m in new for t in m.tiles)
        pool = list(rest.elements())
        rng.shuffle(pool)
        while pool and len(new) < 5:
            size = rng.randint(1, 4)
            new.append(Meld(tuple(pool[:size])))
            pool = pool[size:]
        got = picked_up(old, new)
        assert len(got) == _brute_force_picked_up(old, new), (old, new)
        assert not Counter(got) - Counter(tiles)
        pairs = becomes(old, new)
        assert len(set(pairs.values())) == len(pairs)
        checked += 1
    assert checked >= 1_000


def test_the_vietnamese_example_moves_one_tile() -> None:
    position = ["--table", "r3 r4 r5", "--rack", "r2 b5 k5"]
    code, out = _run("solve", *position, "--json")
    assert code == 0, out
    payload = json.loads(out)
    assert (payload["moved"], payload["moved_tiles"]) == (1, ["r5"])
    assert payload["goes_out"] is True
    first = payload["steps"][0]
    assert first["action"] == "extend" and first["before"] == [["r3", "r4", "r5"]]
    code, out = _run("solve", *position, "--no-color")
    assert "1 table tile moved" in out
    assert "You go out!" in out.splitlines()[0]
    assert "1. Extend r3 r4 r5 with r2" in out
    code, out = _run("analyze", *position, "--colours", "4", "--numbers", "6")
    assert code == 0, out


def test_late_game_split_picks_up_only_the_smaller_part() -> None:
    code, out = _run("solve", str(EXAMPLES / "late_game.txt"), "--json")
    assert code == 0, out
    payload = json.loads(out)
    assert payload["moved"] < 13
    assert all(len(s["before"]) <= 2 and len(s["after"]) <= 2 for s in payload["steps"])


# --- the headline ---------------------------------------------------------------------------


def test_the_opening_meld_counts_its_joker_as_its_tile() -> None:
    code, out = _run("solve", "--initial", "--rack", "r10 r11 j k2 b5", "--no-color")
    assert code == 0, out
    assert "(value 21), opening worth 33 ≥ 30" in out.splitlines()[0]
    code, out = _run("solve", "--initial", "--rack", "r10 r11 j k2 b5", "--json")
    payload = json.loads(out)
    assert payload["opening_value"] == 33 and payload["placed_value"] == 21
    assert payload["opening"] == [["r10", "r11", "j"]]
    assert payload["goes_out"] is False


def test_no_go_out_and_no_opening_in_an_ordinary_turn() -> None:
    _, out = _run("solve", str(EXAMPLES / "midgame.txt"), "--json")
    payload = json.loads(out)
    assert payload["opening_value"] is None and payload["goes_out"] is False


def test_an_opening_that_goes_on_to_the_table_lays_the_opening_meld_first() -> None:
    rules = RuleSet(continue_after_initial=True)
    text = position_from_text("table: r1 r2 r3\nrack: r4 r5 r6 r7 r8 r9 k1")
    position = Position(text.table, text.rack, True, rules)
    run = Meld.parse("r1 r2 r3 r4 r5 r6 r7 r8 r9")
    marks = (False,) * 3 + (True,) * 6
    placed = run.tiles[3:]
    move = Move(
        position,
        (NewMeld(run, Origin.EXTENDED, 0, marks),),
        placed,
        (),
        Status.OPTIMAL,
        Objective.TILES,
        False,
        0.0,
    )
    told = explanation(move)
    assert told.steps[0] == Play(Meld.parse("r4 r5 r6 r7 r8 r9"), placed)
    assert told.opening_value == 39
    table, rack = replay(position.table, position.rack, told.steps, rules)
    assert table == [run] and rack == [position.rack[-1]]
    code, out = _run(
        "solve",
        "--table",
        "k7 k8 k9",
        "--rack",
        "k10 k11 k12 r3",
        "--initial",
        "--continue-after-initial",
        "--json",
    )
    assert code == 0, out
    assert json.loads(out)["steps"][0]["action"] == "play"


# --- the picture ----------------------------------------------------------------------------


def test_svg_draws_every_tile_of_the_new_table(tmp_path: Path) -> None:
    target = tmp_path / "table.svg"
    code, out = _run(
        "solve",
        str(EXAMPLES / "jokers.txt"),
        "--joker-rule",
        "strict",
        "--json",
        "--svg",
        str(target),
    )
    assert code == 0, out
    payload = json.loads(out)
    root = ET.parse(target).getroot()  # well-formed XML
    assert root.tag == f"{{{SVG_NS}}}svg"
    titles = [t.text or "" for t in root.iter(f"{{{SVG_NS}}}title")]
    drawn = Counter(title.split(" = ")[0] for title in titles)
    assert drawn == Counter(t for meld in payload["table"] for t in meld)
    placed = root.findall(f".//{{{SVG_NS}}}g[@class='tile placed']")
    assert len(placed) == payload["placed_count"]
    jokers = [title for title in titles if title.startswith("j")]
    assert jokers and all(" = " in title for title in jokers)


def test_svg_of_a_draw_and_a_bad_path(tmp_path: Path) -> None:
    code, _ = _run("solve", "--rack", "r1 b5", "--svg", str(tmp_path / "draw.svg"))
    assert code == 0
    ET.parse(tmp_path / "draw.svg")
    code, _ = _run("solve", "--rack", "r1 r2 r3", "--svg", str(tmp_path / "no" / "x.svg"))
    assert code == 2


@pytest.mark.parametrize("option", ["--svg", "--png"])
@pytest.mark.parametrize(
    ("where", "says"),
    [("no/x.pic", "no folder"), (".", "it is a folder"), ("", "needs a file name")],
)
def test_a_bad_picture_path_is_one_line_before_the_solve(
    tmp_path: Path, option: str, where: str, says: str
) -> None:
    path = str(tmp_path / where) if where else ""
    code, out = _run("solve", str(EXAMPLES / "midgame.txt"), option, path)
    assert code == 2
    assert out.startswith("error: ") and says in out and out.count("\n") == 1, out
    assert "Best move" not in out  # refused before solving


def test_png_with_a_pillow_too_old_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pil = pytest.importorskip("PIL")
    monkeypatch.setattr(pil, "__version__", "9.5.0")  # load_default(size) came in 10.1
    code, out = _run("solve", str(EXAMPLES / "midgame.txt"), "--png", str(tmp_path / "t.png"))
    assert code == 2
    assert "--png needs Pillow 10.1 or newer, found 9.5.0" in out


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def test_png_draws_the_tiles_of_the_svg(tmp_path: Path) -> None:
    image_module = pytest.importorskip("PIL.Image")
    png, svg = tmp_path / "table.png", tmp_path / "table.svg"
    args = ["solve", str(EXAMPLES / "jokers.txt"), "--joker-rule", "strict", "--json"]
    code, out = _run(*args, "--png", str(png), "--svg", str(svg))
    assert code == 0, out
    payload = json.loads(out)
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    root = ET.parse(svg).getroot()
    with image_module.open(png) as image:
        image.load()
        assert image.size == (int(root.get("width", "0")), int(root.get("height", "0")))
        pixels = image.convert("RGB")
    # Every tile of the SVG is in the PNG at the same place, with the same face: a placed
    # tile's face is the highlight colour, any other's the plain one (sampled just inside
    # the top right corner, clear of the label and of the colour letter at the top left).
    faces = {_rgb(picture._TILE_LIT): 0, _rgb(picture._TILE_FACE): 0}
    for rect in root.iter(f"{{{SVG_NS}}}rect"):
        if rect.get("rx") is None:
            continue  # the felt
        x, y = int(rect.get("x", "0")), int(rect.get("y", "0"))
        face = pixels.getpixel((x + int(rect.get("width", "0")) - 6, y + 8))
        assert face == _rgb(rect.get("fill", "")), (x, y, face)
        faces[face] += 1
    assert faces[_rgb(picture._TILE_LIT)] == payload["placed_count"]
    assert sum(faces.values()) == sum(len(meld) for meld in payload["table"])
    assert pixels.getpixel((2, 2)) == _rgb(picture._FELT)


def test_png_without_pillow_says_how_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "PIL", None)  # import PIL now raises ImportError
    code, out = _run("solve", str(EXAMPLES / "midgame.txt"), "--png", str(tmp_path / "t.png"))
    assert code == 2
    assert "--png needs Pillow: pip install 'rummikub[plot]'" in out
    assert not (tmp_path / "t.png").exists()


def test_png_and_jsonl_do_not_mix(tmp_path: Path) -> None:
    code, out = _run("solve", "--jsonl", "--png", str(tmp_path / "t.png"))
    assert code == 2 and "work on one position" in out


def test_picture_knows_only_melds() -> None:
    svg = table_svg(TablePicture([Meld.parse("r1 j r3")], [[False, True, False]], {(0, 1): "r2"}))
    root = ET.fromstring(svg.split("\n", 1)[1])
    texts = [t.text for t in root.iter(f"{{{SVG_NS}}}text")]
    assert "=r2" in texts and "J" in texts


@pytest.mark.parametrize("options", range(1, 7))
def test_a_joker_note_fits_its_tile(options: int) -> None:
    """However many tiles a joker may stand for, its note stays inside the tile: at most
    two lines, each narrower than the tile in the PNG's font (the SVG has the same lines)."""
    font_module = pytest.importorskip("PIL.ImageFont")
    image_module = pytest.importorskip("PIL.Image")
    draw_module = pytest.importorskip("PIL.ImageDraw")
    note = "/".join(f"{c}13" for c in "rbkogp"[:options])
    lines, size = picture.note_lines(note)
    assert 1 <= len(lines) <= 2 and lines[0].startswith("=")
    shown = "".join(lines).lstrip("=").replace("/…", "").split("/")
    assert shown == note.split("/")[: options if options <= 4 else 3]
    font = font_module.load_default(size)
    measure = draw_module.Draw(image_module.new("RGB", (1, 1)))
    assert all(measure.textlength(line, font=font) <= picture._TILE_W - 4 for line in lines)
    drawn = TablePicture([Meld.parse("r13 b13 j")], [[False] * 3], {(0, 2): note})
    svg = table_svg(drawn)
    root = ET.fromstring(svg.split("\n", 1)[1])
    notes = [t.text for t in root.iter(f"{{{SVG_NS}}}text") if t.get("class") == "note"]
    assert notes == list(lines)
    png = picture.table_png(drawn)
    with image_module.open(io.BytesIO(png)) as image:
        pixels = image.convert("RGB")
    x, y = picture._Layout.of(drawn).corner(0, 2)
    right = x + picture._TILE_W + 2  # just right of the joker's tile: the felt, no ink
    assert all(pixels.getpixel((right, y + dy)) == _rgb(picture._FELT) for dy in range(56))


# --- help -----------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["solve", "analyze", "check"])
def test_help_keeps_its_examples_as_examples(command: str) -> None:
    code, out = _run(command, "--help")
    assert code == 0
    lines = out.splitlines()
    assert "    rack: k4 k5 o9 j" in lines
    assert "    initial: yes                      (opening meld still to make)" in lines
    if command == "solve":
        assert '    rummikub solve --table "r3 r4 r5" --rack "r2 b5 k5"' in lines
