"""The machinery that runs the docs' examples (tests/doc_examples.py): what it masks, what it
compares, and that a stale example fails. The examples themselves are collected from
README.md and docs/ by the root conftest.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from doc_examples import ROOT, mask, output_difference, sybil
from sybil import Example

RUN_LANGUAGES = {"console", "python"}
SHOWN_LANGUAGES = {"bash", "text", "toml", "json"}
DOC_PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _examples(text: str, tmp_path: Path, name: str = "page.md") -> list[Example]:
    """The runnable examples of a page with ``text``, ready to evaluate."""
    page = tmp_path / name
    page.write_text(text, encoding="utf-8")
    document = sybil().parse(page)
    examples = list(document.examples())
    for example in examples:
        example.namespace["tmp_path"] = tmp_path / f"block{example.line}"
        example.namespace["tmp_path"].mkdir()
    return examples


def _failure(example: Example) -> str | None:
    try:
        example.evaluate()
    except AssertionError as failure:
        return str(failure)
    return None


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        ("(proved optimal, 13 ms)", "(proved optimal, <time>)"),
        ("Analysed in 0.3 s", "Analysed in <time>"),
        (
            "2000 games in 89.7 s (22.30 games/s, 1024 solves/s; process, 2 jobs)",
            "2000 games in <time> (<rate>, <rate>; process, <jobs>)",
        ),
        ("(process, 1 job, seed 0)", "(process, <jobs>, seed 0)"),
        ("k13 r13 j   \nr5  \n\n", "k13 r13 j\nr5"),
        ("10,232,524 of 37 hands (2.735e-05%)", "10,232,524 of 37 hands (2.735e-05%)"),
    ],
)
def test_mask_hides_machine_figures_only(text: str, masked: str) -> None:
    assert mask(text) == masked


def test_mask_prints_the_block_folder_as_home() -> None:
    masked = mask("New game in /tmp/x1/.local/g.jsonl", "/tmp/x1")
    assert masked == "New game in /home/me/.local/g.jsonl"


def test_json_output_is_compared_as_data_with_its_timings_masked() -> None:
    want = '{\n  "placed": ["k13", "j"],\n  "seconds": 0.0103\n}'
    assert output_difference(want, '{"placed": ["k13", "j"], "seconds": 0.5}') is None
    difference = output_difference(want, '{"placed": ["k13"], "seconds": 0.5}')
    assert difference is not None and '"k13"' in difference


def test_ellipsis_stands_for_left_out_lines() -> None:
    assert output_difference("first\n...\nlast", "first\nsecond\nthird\nlast") is None
    assert output_difference("first\n...\nlast", "first\nsecond\nlater") is not None


def test_a_console_example_that_prints_what_the_page_shows_passes(tmp_path: Path) -> None:
    page = "```console\n$ echo 'placed 3 tiles in 12 ms'\nplaced 3 tiles in 4 ms\n```\n"
    [example] = _examples(page, tmp_path)
    assert _failure(example) is None


def test_a_stale_console_example_fails_with_a_diff(tmp_path: Path) -> None:
    page = "text\n\n```console\n$ echo 'place 7 tiles'\nplace 6 tiles\n```\n"
    [example] = _examples(page, tmp_path)
    failure = _failure(example)
    assert failure is not None
    assert "line 4: $ echo 'place 7 tiles'" in failure
    assert "-place 6 tiles" in failure and "+place 7 tiles" in failure


def test_a_command_must_exit_0_unless_its_output_shows_an_error(tmp_path: Path) -> None:
    page = (
        "```console\n$ echo 'oops'; exit 2\noops\n```\n\n"
        "```console\n$ echo 'error: no'; exit 2\nerror: no\n```\n"
    )
    quiet_failure, shown_error = _examples(page, tmp_path)
    failure = _failure(quiet_failure)
    assert failure is not None and "exit status 2, expected 0" in failure
    assert _failure(shown_error) is None


def test_the_installed_rummikub_runs_in_a_folder_with_the_examples(tmp_path: Path) -> None:
    page = (
        "```console\n$ rummikub check examples/midgame.txt\n"
        "legal position: 5 table melds (18 tiles), 9 rack tiles\n$ echo $HOME\n/home/me\n```\n"
    )
    [example] = _examples(page, tmp_path)
    assert _failure(example) is None


def test_a_stale_python_example_fails(tmp_path: Path) -> None:
    page = "```python\n>>> from rummikub import Tile\n>>> str(Tile.parse('R10'))\n'r11'\n```\n"
    [example] = _examples(page, tmp_path)
    failure = _failure(example)
    assert failure is not None and "'r10'" in failure


def test_a_python_block_that_prints_must_show_it(tmp_path: Path) -> None:
    silent, loud = _examples("```python\nx = 1\n```\n\n```python\nprint('hi')\n```\n", tmp_path)
    assert _failure(silent) is None
    failure = _failure(loud)
    assert failure is not None and "prints output but shows none" in failure


def test_a_file_block_is_written_for_the_blocks_after_it(tmp_path: Path) -> None:
    page = (
        "```console\n$ ls\nexamples\n```\n\n<!-- file: bot.py -->\n```python\nX = 1\n```\n\n"
        "```console\n$ cat bot.py\nX = 1\n```\n"
    )
    before, module, after = _examples(page, tmp_path)
    assert _failure(before) is None and _failure(module) is None and _failure(after) is None


@pytest.mark.parametrize("page", DOC_PAGES, ids=lambda page: page.name)
def test_every_fenced_block_is_run_or_says_it_is_not(page: Path) -> None:
    """A block in another language (```shell, ```py) would silently not be run."""
    fences = re.findall(r"^```(\S*)\n.*?^```$", page.read_text(encoding="utf-8"), re.M | re.S)
    unknown = [language for language in fences if language not in RUN_LANGUAGES | SHOWN_LANGUAGES]
    assert unknown == [], f"{page.name}: fenced blocks in {unknown}; use one of {RUN_LANGUAGES}"


def test_the_pages_hold_at_least_20_runnable_examples() -> None:
    count = sum(len(list(sybil().parse(page).examples())) for page in DOC_PAGES)
    assert count >= 20
