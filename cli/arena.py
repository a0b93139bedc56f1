"""``rummikub arena``: play tournaments between strategies and report the statistics.

Everything heavy (the arena, the solver, matplotlib, Ray) is imported inside the command,
so ``rummikub --help`` stays fast.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

import click

from rummikub.cli import interrupt
from rummikub.cli.arena_watch import RecordFile, TournamentWatch, elo_text, log_to_stderr
from rummikub.cli.errors import check_writable
from rummikub.cli.errors import fail as _fail
from rummikub.cli.errors import guard as _guard
from rummikub.cli.options import (
    DEFAULT_WORK,
    Number,
    executor_options,
    jobs_option,
    json_option,
    progress_option,
    seed_option,
    time_limit_option,
)
from rummikub.cli.rule_options import standard_rules_options
from rummikub.cli.text import plural

if TYPE_CHECKING:
    from rummikub.arena.tournament import TournamentConfig, TournamentResult
    from rummikub.models.rules import RuleSet

F = TypeVar("F", bound=Callable[..., Any])


def _strategy_list() -> str:
    from rummikub.arena.players import ALIASES, STRATEGIES

    width = max(len(name) for name in STRATEGIES)
    lines = [f"  {name:<{width}}  {s.summary}" for name, s in STRATEGIES.items()]
    aliases = ", ".join(f"{a} = {b}" for a, b in ALIASES.items())
    lines.append(f"  aliases: {aliases}")
    lines.append("  module:callable  your own player (a callable taking a PlayerView, or a class)")
    return "\n".join(lines)


def _parse_sprt(text: str | None) -> tuple[float, float] | None:
    from rummikub.arena.stats import MAX_SPRT_ELO

    if text is None:
        return None
    parts = text.replace(" ", "").split(",")
    try:
        elo0, elo1 = (float(p) for p in parts)
    except ValueError:
        _fail(f"--sprt takes two Elo bounds like 0,10, got {text!r}")
    if not all(abs(e) <= MAX_SPRT_ELO for e in (elo0, elo1)):  # nan and inf too
        _fail(
            f"--sprt bounds must lie within -{MAX_SPRT_ELO:g}..{MAX_SPRT_ELO:g} Elo, got {text!r}"
        )
    if not elo0 < elo1:
        _fail(f"--sprt needs elo0 < elo1, got {text!r}")
    return elo0, elo1


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def render_text(result: TournamentResult, jobs: int, executor: str) -> str:
    """The human-readable report: the standings table, head to head, SPRT, figures."""
    data = result.to_json()
    config = result.config
    cycle = config.cycle
    from rummikub.models.presets import rules_line

    lines = [
        f"{data['games']} games of {data['seats']} players, seed {data['seed']}"
        + (f", matches to {config.game.target}" if config.game.target else ", one round each")
        + f"; schedule cycle {cycle} games (every seat order)",
        f"rules: {rules_line(config.game.rules)}",
    ]
    if result.interrupted:
        played = f"{data['games']} of {config.games} games"
        lines.append(f"interrupted after {played}: the figures below are for those")
    if data["games"] % cycle:
        lines.append(f"note: {data['games']} is not a multiple of {cycle}: seats are unbalanced")
    lines += ["", *_standings(data, bool(config.game.target)), "", *_head_to_head(result)]
    if data["sprt"] is not None:
        lines += ["", _sprt_line(data["sprt"], result.interrupted)]
    timing = data["timing"]
    lines += [
        "",
        f"mean turns per game {data['mean_turns']:.1f}, blocked rounds {data['blocked_rounds']},"
        f" first mover won {_percent(data['first_mover_win_rate'])}",
        f"{data['games']} games in {timing['seconds']:.1f} s"
        f" ({timing['games_per_second'] or 0:.2f} games/s, {timing['solves_per_second'] or 0:.0f}"
        f" solves/s; {executor}, {jobs} job{'s' if jobs != 1 else ''})",
    ]
    return "\n".join(lines)


def _standings(data: dict[str, Any], matches: bool) -> list[str]:
    """The players' table: games, wins, win rate and its interval, scores, tiles left."""
    headers = ["player", "games", "wins", "win rate", "95% CI", "mean score", "tiles left"]
    rows = [
        [
            p["name"],
            str(p["games"]),
            str(p["wins"]),
            _percent(p["win_rate"]),
            f"{_percent(p['win_rate_ci'][0])}-{_percent(p['win_rate_ci'][1])}",
            f"{p['mean_score']:+.1f}",
            f"{p['mean_tiles_left']:.1f}",
        ]
        for p in data["players"]
    ]
    if matches:
        headers.insert(6, "per round")
        for row, p in zip(rows, data["players"], strict=True):
            row.insert(6, f"{p['mean_round_score']:+.1f}")
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        pairs = enumerate(zip(cells, widths, strict=True))
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in pairs)

    return [line(headers), *(line(row) for row in rows)]


def _head_to_head(result: TournamentResult) -> list[str]:
    """Each pair's wins, draws and losses, score and Elo with its interval."""
    lines = ["head to head (Elo of the first over the second, 95% interval):"]
    for pair in result.pairs:
        estimate = pair.estimate()
        low, high = estimate.interval
        a, b = result.entrants[pair.a].name, result.entrants[pair.b].name
        lines.append(
            f"  {a} vs {b}: +{pair.wins} ={pair.draws} -{pair.losses}"
            f"  score {_percent(estimate.score)}  Elo {elo_text(estimate.elo)}"
            f" [{elo_text(low)}, {elo_text(high)}]"
        )
    return lines


def _sprt_line(sprt: dict[str, Any], interrupted: bool = False) -> str:
    """The SPRT's bounds, its log-likelihood ratio and its decision."""
    verdict = {
        "H1": f"H1 accepted: {sprt['a']} is stronger by >= {sprt['elo1']:g} Elo",
        "H0": f"H0 accepted: {sprt['a']} is not stronger by {sprt['elo1']:g} Elo"
        + (f" ({sprt['stronger']} is stronger)" if sprt["stronger"] else ""),
        None: f"no decision yet ({'interrupted' if interrupted else 'game limit reached'})",
    }[sprt["decision"]]
    return (
        f"SPRT {sprt['a']} vs {sprt['b']} elo0={sprt['elo0']:g} elo1={sprt['elo1']:g}"
        f" alpha={sprt['alpha']:g} beta={sprt['beta']:g}: LLR {sprt['llr']:.2f}"
        f" in [{sprt['bounds'][0]:.2f}, {sprt['bounds'][1]:.2f}] after {sprt['deals']} whole"
        f" deals ({sprt['deal_games']} games of the two); {verdict}"
    )


PLAYER_COLUMNS = [
    "name",
    "games",
    "wins",
    "win_rate",
    "win_rate_ci_low",
    "win_rate_ci_high",
    "mean_score",
    "mean_round_score",
    "mean_match_score",
    "mean_tiles_left",
    "mean_turns",
]


def write_csv(result: TournamentResult, path: str) -> None:
    """One row per player, the columns of the ``--json`` players."""
    import csv

    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(PLAYER_COLUMNS)
        for p in result.to_json(timing=False)["players"]:
            low, high = p["win_rate_ci"]
            row = p | {"win_rate_ci_low": low, "win_rate_ci_high": high}
            writer.writerow(["" if row[c] is None else row[c] for c in PLAYER_COLUMNS])


def write_games_csv(result: TournamentResult, path: str) -> None:
    """One row per game: seed, who sat where, the winner, scores, turns."""
    import csv

    names = [e.name for e in result.entrants]
    seats = result.config.table_size
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(
            ["game", "deal", "seed", "winner", "first", "turns", "rounds", "reason"]
            + [f"seat{s}" for s in range(seats)]
            + [f"score{s}" for s in range(seats)]
        )
        for g in result.summaries:
            writer.writerow(
                [
                    g.index,
                    g.deal,
                    g.seed,
                    names[g.lineup[g.winner]],
                    names[g.lineup[g.first]],
                    g.turns,
                    len(g.reasons),
                    g.reasons[-1],
                ]
                + [names[e] for e in g.lineup]
                + list(g.scores)
            )


def _record_lines(path: str) -> list[str]:
    """The lines of a record file, or a one-line error: unreadable, not UTF-8, no game."""
    try:
        with open(path, "rb") as handle:
            text = handle.read().decode("utf-8-sig")
    except OSError as error:
        _fail(f"cannot read {path}: {error.strerror or error}")
    except UnicodeDecodeError:
        _fail(f"{path}: not UTF-8 text")
    lines = text.splitlines()
    if not any(line.strip() for line in lines):
        _fail(f"{path}: the record holds no game")
    return lines


def _replay(path: str, as_json: bool) -> None:
    from rummikub.game.replay import replay_file

    notes: list[str] = []
    results = replay_file(_record_lines(path), warn=notes.append)
    if not results:
        _fail(f"{path}: the record holds no whole game ({'; '.join(notes)})")
    for note in notes:
        click.echo(f"warning: {path}: {note}", err=True)
    if as_json:
        games = [
            {
                "players": list(g.names),
                "winner": g.names[g.winner],
                "totals": list(g.totals),
                "rounds": len(g.rounds),
                "turns": g.turns,
            }
            for g in results
        ]
        click.echo(json.dumps({"games": len(results), "results": games}))
        return
    for number, g in enumerate(results):
        scores = ", ".join(f"{n} {t:+d}" for n, t in zip(g.names, g.totals, strict=True))
        click.echo(f"game {number}: {g.names[g.winner]} won in {g.turns} turns ({scores})")
    replayed = plural(len(results), "game")
    click.echo(f"{replayed} replayed: every move legal, every result as recorded")


@click.command(
    help="""Play a tournament between strategies and report win rates, scores and Elo.

\b
Every combination of --seats entrants plays in every seat order on a
shared deal (so deal and seat luck cancel out); each game's seed is
derived from --seed, so the numbers never depend on --jobs.
\b
The games are played under the rules of --rules and the single rule
options, as on solve (standard by default); every move is checked under
them, and a player that breaks one stops the game (exit status 2). A
record stores the rules, and --replay checks the moves under them again.
\b
Examples:
  rummikub arena --list
  rummikub arena --players max-tiles,hold-back,greedy,sets-only --games 2000 --seed 1 --jobs 2
  rummikub arena --players max-tiles,human --sprt 0,50 --games 5000 --jobs 2
  rummikub arena --players max-tiles,mybot:play --games 100 --json
  rummikub arena --players max-tiles,hold-back --rules american --joker-rule strict
  rummikub arena --replay games.jsonl
""",
)
@click.option("--players", "-p", help="Comma-separated strategies (see --list) or module:callable.")
@click.option("--list", "list_players", is_flag=True, help="List the built-in strategies.")
@click.option(
    "--games",
    "-n",
    type=click.IntRange(min=1),
    default=100,
    show_default=True,
    help="Games to play (the maximum with --sprt).",
)
@seed_option("the tournament (each game's seed is derived from it)")
@jobs_option(1, "the games (Ray: tasks in flight / 4)")
@click.option(
    "--seats",
    type=click.IntRange(min=2, max=4),
    default=None,
    help="Players per game (default: all entrants, at most 4).",
)
@click.option("--match", is_flag=True, help="Each game is a match of rounds to --target points.")
@click.option(
    "--target",
    type=click.IntRange(min=1),
    default=200,
    show_default=True,
    help="Match target with --match.",
)
@time_limit_option("work", DEFAULT_WORK)
@click.option(
    "--sprt",
    metavar="ELO0,ELO1",
    help="Stop when the SPRT between the first two players decides (e.g. 0,10).",
)
@click.option(
    "--sprt-alpha",
    type=Number(0.0001, 0.4999),
    default=0.05,
    show_default=True,
    help="SPRT false-positive rate.",
)
@click.option(
    "--sprt-beta",
    type=Number(0.0001, 0.4999),
    default=0.05,
    show_default=True,
    help="SPRT false-negative rate.",
)
@executor_options("games")
@json_option()
@click.option("--json-file", metavar="FILE", help="Also write the --json object to FILE.")
@click.option("--csv", "csv_path", metavar="FILE", help="Write the player table as CSV.")
@click.option("--games-csv", metavar="FILE", help="Write one CSV row per game.")
@click.option(
    "--plot",
    "plot_path",
    metavar="FILE",
    help="Plot win rates and score distributions (pip install 'rummikub[plot]').",
)
@click.option(
    "--record",
    "record_path",
    metavar="FILE",
    help="Record every game (deal and every move) as JSON Lines.",
)
@click.option(
    "--replay",
    "replay_path",
    metavar="FILE",
    help="Replay a record, re-checking every move, and print the results.",
)
@progress_option
@standard_rules_options
@_guard
def arena(
    players: str | None,
    list_players: bool,
    games: int,
    seed: int,
    jobs: int,
    seats: int | None,
    match: bool,
    target: int,
    time_limit: float,
    sprt: str | None,
    sprt_alpha: float,
    sprt_beta: float,
    executor: str,
    ray_address: str | None,
    as_json: bool,
    json_file: str | None,
    csv_path: str | None,
    games_csv: str | None,
    plot_path: str | None,
    record_path: str | None,
    replay_path: str | None,
    progress: bool | None,
    rules: RuleSet,
) -> None:
    if list_players:
        click.echo("Built-in strategies:\n" + _strategy_list())
        return
    if replay_path is not None:
        if click.get_current_context().meta.get("rules_given"):
            _fail("--replay plays a record under the rules in its header; drop the rule options")
        _replay(replay_path, as_json)
        return
    if not players:
        _fail("give --players (comma-separated, see --list), --list or --replay")
    from rummikub.arena.stats import Sprt
    from rummikub.arena.tournament import TournamentConfig
    from rummikub.game.rounds import GameConfig

    specs = _player_specs(players, time_limit, executor, plot_path)
    bounds = _parse_sprt(sprt)
    config = TournamentConfig(
        players=specs,
        games=games,
        seed=seed,
        seats=seats,
        game=GameConfig(rules=rules, target=target if match else None),
        time_limit=time_limit,
        sprt=Sprt(*bounds, alpha=sprt_alpha, beta=sprt_beta) if bounds else None,
        record=record_path is not None,
    )
    _check_outputs(
        {"--json-file": json_file, "--csv": csv_path, "--games-csv": games_csv}
        | {"--plot": plot_path, "--record": record_path}
    )
    with RecordFile(record_path) as record:
        result = _play(config, executor, jobs, ray_address, progress, record)
    # The report first: a file that cannot be written (a full disk) does not lose it.
    click.echo(json.dumps(result.to_json()) if as_json else render_text(result, jobs, executor))
    _write_files(result, json_file, csv_path, games_csv, plot_path)
    if result.interrupted:
        raise KeyboardInterrupt  # exit status 130, as for any command stopped by Ctrl-C


def _player_specs(
    players: str, time_limit: float, executor: str, plot_path: str | None
) -> tuple[str, ...]:
    """The entrants, each made once here so that a bad name fails before any game (and a
    missing matplotlib or Ray is said now, not after the games)."""
    from rummikub.arena.players import make_player

    if os.getcwd() not in sys.path:  # module:callable resolves from here, as with python -m
        sys.path.insert(0, os.getcwd())
    specs = tuple(p.strip() for p in players.split(",") if p.strip())
    for spec in specs:
        make_player(spec, time_limit)
    if plot_path is not None:
        from rummikub.arena.plot import check_plot_path

        check_plot_path(plot_path)
    if executor == "ray":
        from rummikub.arena.executors import import_ray

        import_ray()
    return specs


def _play(
    config: TournamentConfig,
    executor: str,
    jobs: int,
    ray_address: str | None,
    progress: bool | None,
    record: RecordFile,
) -> TournamentResult:
    """Run the tournament with its progress on stderr if asked (default: a terminal): a bar
    on a terminal, else a line now and then; the record written as games end."""
    show = sys.stderr.isatty() if progress is None else progress
    watch = TournamentWatch(config, record)
    if not (show and sys.stderr.isatty()):
        watch.log = log_to_stderr if show else None
        return _run(watch, executor, jobs, ray_address)
    with click.progressbar(
        length=config.games,
        label="games",
        file=sys.stderr,
        show_pos=True,
        width=20,  # room for the status on a line of 80
        item_show_func=lambda status: status,
    ) as bar:
        watch.bar = bar
        return _run(watch, executor, jobs, ray_address)


def _run(
    watch: TournamentWatch, executor: str, jobs: int, ray_address: str | None
) -> TournamentResult:
    """The tournament's result; on Ctrl-C, that of the games played so far (if any)."""
    from rummikub.arena.tournament import run_tournament

    try:
        result = run_tournament(
            watch.config, executor=executor, jobs=jobs, progress=watch, ray_address=ray_address
        )
    except (KeyboardInterrupt, Exception) as error:
        # Ctrl-C ends the workers first: the pool may fail before the KeyboardInterrupt comes.
        if not isinstance(error, KeyboardInterrupt) and not interrupt.requested():
            raise
        interrupt.settle()
        partial = watch.interrupted()
        if partial is None:
            raise
        result = partial
    interrupt.settle()  # a Ctrl-C as the last game ended: the report comes out whole
    watch.log_line(result)
    return result


def _check_outputs(paths: dict[str, str | None]) -> None:
    """Stop before any game unless every output file asked for can be written, each to a
    file of its own."""
    seen: dict[str, str] = {}
    for option, path in paths.items():
        if path is None:
            continue
        check_writable(path, option)
        same = os.path.realpath(path)
        if same in seen:
            _fail(f"{seen[same]} and {option} name the same file {path}: give each its own")
        seen[same] = option


def _write_files(
    result: TournamentResult,
    json_file: str | None,
    csv_path: str | None,
    games_csv: str | None,
    plot_path: str | None,
) -> None:
    """The files asked for besides the record: the JSON, the CSV tables, the plot."""
    if json_file is not None:
        with _writing(json_file), open(json_file, "w", encoding="utf-8") as handle:
            json.dump(result.to_json(), handle, indent=1)
            handle.write("\n")
    if csv_path is not None:
        with _writing(csv_path):
            write_csv(result, csv_path)
    if games_csv is not None:
        with _writing(games_csv):
            write_games_csv(result, games_csv)
    if plot_path is not None:
        from rummikub.arena.plot import plot_result

        with _writing(plot_path):
            plot_result(result, plot_path)


@contextlib.contextmanager
def _writing(path: str) -> Iterator[None]:
    """Writing ``path``: a failure (a full disk, a folder gone) is one line, exit 2."""
    try:
        yield
    except OSError as error:
        _fail(f"cannot write {path}: {error.strerror or error}")
