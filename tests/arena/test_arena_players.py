"""The built-in strategies play only legal moves; heuristics; custom ``module:callable`` players."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from rummikub.arena import make_player, strategy_names
from rummikub.arena.heuristic import extend_table, rack_sets
from rummikub.arena.players import STRATEGIES, HoldBack
from rummikub.game import ArenaError, GameConfig, PlayerView, RoundState, Turn, play_game
from rummikub.models import STANDARD, Meld, Tile
from rummikub.models.validation import move_problems


def tiles(text: str) -> list[Tile]:
    return [Tile.parse(t) for t in text.split()]


def test_the_required_strategies_are_built_in_and_documented() -> None:
    names = set(strategy_names())
    assert {
        "never-play",
        "sets-only",
        "max-tiles",
        "greedy",
        "max-value",
        "hold-back",
        "keep-jokers",
        "human",
    } <= names
    for strategy in STRATEGIES.values():
        assert strategy.summary and "\n" not in strategy.summary


def test_optimal_is_the_old_name_of_max_tiles() -> None:
    assert "optimal" not in strategy_names()
    old, new = make_player("optimal"), make_player("max-tiles")
    assert type(old) is type(new) and vars(old) == vars(new)


@pytest.mark.parametrize(
    "lineup",
    [
        ("max-tiles", "max-value", "keep-jokers", "hold-back"),
        ("sets-only", "human", "greedy", "never-play"),
    ],
)
def test_every_builtin_strategy_plays_legal_moves(lineup: tuple[str, ...]) -> None:
    # The engine checks every move with the validator and raises on an illegal one; the
    # observer re-checks that nothing is lost and counts each strategy's plays.
    plays = dict.fromkeys(lineup, 0)

    def observe(state: RoundState, turn: Turn) -> None:
        assert state.conserved()
        if turn.action == "play":
            plays[lineup[turn.seat]] += 1

    for seed in (1, 2):
        players = [make_player(name, time_limit=10) for name in lineup]
        play_game(players, seed, GameConfig(), names=lineup, observer=observe)
    assert all(count > 0 for name, count in plays.items() if name != "never-play"), plays
    assert plays.get("never-play", 0) == 0


def test_rack_sets_finds_runs_groups_and_joker_pairs() -> None:
    sets = rack_sets(tiles("r3 r4 r5 r6 k9 b9 o9 b1 b2 j"), STANDARD)
    shown = sorted(str(m) for m in sets)
    assert "r3 r4 r5 r6" in shown and any("9" in s for s in shown)
    assert all(m.is_legal() for m in sets)
    assert sum(len(m) for m in sets) == 10  # the joker completes b1 b2


def test_extend_table_lays_tiles_on_run_ends_and_groups() -> None:
    table = [Meld.parse("r3 r4 r5"), Meld.parse("k9 b9 o9")]
    melds, laid = extend_table(table, tiles("r6 r2 r9 b1"), STANDARD)
    assert sorted(map(str, laid)) == ["r2", "r6", "r9"]
    assert all(m.is_legal() for m in melds)


@pytest.mark.parametrize(
    ("rule", "table", "rack", "placed"),
    [
        # Under locked, the joker's own tile frees it, and it may stay in its run.
        ("locked", "k1 k2 k3 k4 j k6", "k5 o1", "k5"),
        # Under strict, a freed joker needs two more rack tiles beside it: b9 b10.
        ("strict", "b1 b2 j b4 b5 b6 b7 | k8 k6 j", "b10 b3 b9", "b10 b3 b9"),
        ("strict", "k1 k2 k3 k4 j k6", "k5 o1", ""),  # the freed joker would go nowhere
        ("strict", "k5 b5 j", "r5 o1", "r5"),  # the joker stays o5 or r5: r5 goes down
    ],
)
def test_human_lays_what_the_joker_rule_allows(
    rule: str, table: str, rack: str, placed: str
) -> None:
    # Found by review: the first fix of 'human' under these rules (never let a joker's
    # meaning change) refused legal plays, 813 turns in 60 locked games.
    from rummikub.models import JokerRule, RuleSet

    rules = RuleSet(joker_rule=JokerRule(rule))
    melds = tuple(Meld.parse(m) for m in table.split("|"))
    view = PlayerView(seat=0, rack=tuple(tiles(rack)), table=melds, opened=True,
                      rack_sizes=(len(tiles(rack)), 14), pool_size=50, scores=(0, 0),
                      turn=4, round=1, seed=0, rules=rules)  # fmt: skip
    play = make_player("human")(view)
    laid = sorted(map(str, play.placed)) if play is not None else []
    assert laid == sorted(placed.split())
    if play is not None:
        assert move_problems(view.position(), play.melds, play.placed) == []


def test_hold_back_keeps_tiles_while_the_rack_is_large() -> None:
    table = (Meld.parse("r3 r4 r5"),)
    rack = tuple(tiles("r6 k1 k5 b8 b11 o2 o4 o7 o12"))
    view = PlayerView(
        seat=0,
        rack=rack,
        table=table,
        opened=True,
        rack_sizes=(9, 5),
        pool_size=30,
        scores=(0, 0),
        turn=10,
        round=1,
        seed=0,
    )
    assert HoldBack()(view).is_draw  # 9 tiles, big pool: holds r6 back
    low_pool = PlayerView(**{**view.__dict__, "pool_size": 5})
    assert not HoldBack()(low_pool).is_draw
    small = PlayerView(**{**view.__dict__, "rack": tuple(tiles("r6 k1 k5"))})
    play = HoldBack()(small)
    assert play is not None and list(play.placed) == tiles("r6")
    assert move_problems(small.position(), play.melds, play.placed) == []


def test_custom_module_callable_players(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "my_bots.py").write_text(
        textwrap.dedent("""
        from rummikub.arena.players import SolverPlayer

        def lazy(view):
            return None

        class Counting:
            def __init__(self):
                self.turns = 0
            def __call__(self, view):
                self.turns += 1
                return None

        inner = SolverPlayer()
    """)
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    lazy = make_player("my_bots:lazy")
    assert lazy.__name__ == "lazy"  # type: ignore[attr-defined]
    counting = make_player("my_bots:Counting")  # a class: a fresh instance per call
    assert counting is not make_player("my_bots:Counting")
    game = play_game([counting, make_player("max-tiles")], 3)
    assert game.turns_taken[0] == counting.turns > 0  # type: ignore[attr-defined]
    with pytest.raises(ArenaError, match="cannot import"):
        make_player("no_such_module_here:bot")
    with pytest.raises(ArenaError, match="has no"):
        make_player("my_bots:missing")
    with pytest.raises(ArenaError, match="unknown strategy 'optimul'"):
        make_player("optimul")
