"""What becomes of each table joker in a move, under the strict and locked joker rules.

Under those rules a table joker either *stays*, standing for the same tile wherever it moves,
or is *freed* by a swap: the tile it stands for, from the rack, takes its place, and the
joker goes to a free joker slot of the new table (under ``strict`` one in a new set with two
rack tiles, a *host*). :func:`joker_plan` picks one such account of a move (with as few
freed jokers as any, by :func:`rummikub.models.validation.table_joker_witness`) and writes
it into the tables themselves: each joker of the old and the new table becomes a
:class:`TableJoker` tagged with its role and meaning, so that equal tiles are the same
joker's two ends. A staying joker is then "the joker standing for r7" on both tables, a
freed joker matches nothing it could stay in, and rack jokers stay plain.

Pairing old and new melds on the tagged tables (:func:`rummikub.models.moves.becomes`) counts
a joker as lying still only where it keeps its meaning; the explainer walks the tagged tables
so that no step lets a joker change meaning without a swap.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from rummikub.models.jokers import JokerRule
from rummikub.models.meld import Meld, MeldKind
from rummikub.models.position import Position
from rummikub.models.rules import RuleSet
from rummikub.models.tile import JOKER, Tile
from rummikub.models.validation import opening_allows, table_joker_witness


class Role(StrEnum):
    """What a tagged joker is on its table."""

    STAYS = "stays"  # a table joker that keeps standing for ``means`` (old and new table)
    FREED = "freed"  # a table joker swapped for ``means`` from the rack (old table)
    HOSTED = "hosted"  # a joker slot of the new table that takes a freed joker


@dataclass(frozen=True, slots=True)
class TableJoker(Tile):
    """A joker tagged with its role in the move and the tile it stands for (as an old
    joker) or stood for (a freed joker's slot). It is a joker (``is_joker``) and prints as
    one, but equals only a joker with the same tags."""

    means: Tile = JOKER
    role: Role = Role.STAYS

    def __repr__(self) -> str:
        return f"TableJoker({self.role} {self.means})"


def tagged(role: Role, means: Tile) -> TableJoker:
    """The tagged joker of ``role`` standing for (or freed from) ``means``."""
    return TableJoker(None, None, means, role)


def plain(tile: Tile) -> Tile:
    """The tile as it lies on the table (a tagged joker is a joker)."""
    return JOKER if tile.is_joker else tile


def declared_meanings(tiles: Sequence[Tile]) -> tuple[Tile | None, ...]:
    """Per joker of the tiles, in order: the tile a staying joker stands for, else None."""
    return tuple(
        t.means if isinstance(t, TableJoker) and t.role is Role.STAYS else None
        for t in tiles
        if t.is_joker
    )


def as_meld(tiles: Sequence[Tile], declared: Sequence[Tile | None] = ()) -> Meld:
    """The tiles as a meld whose staying jokers must stand for their tile (the other jokers
    as ``declared``, when given)."""
    tags = declared_meanings(tiles)
    fixed = tuple(
        tag if tag is not None else (declared[k] if k < len(declared) else None)
        for k, tag in enumerate(tags)
    )
    return Meld(tuple(tiles), fixed)


@dataclass(frozen=True)
class JokerPlan:
    """A move's tables with every table joker tagged (see the module docstring), and the new
    melds no old meld may become: under ``strict`` the hosts (a freed joker's set is new)."""

    old: tuple[Meld, ...]
    new: tuple[Meld, ...]
    fresh: frozenset[int]


def _slot_meanings(meld: Meld, rules: RuleSet) -> list[set[Tile]]:
    """Per joker of the meld, in order: what it stands for as laid out (every option of a
    group; nothing known when no reading is laid out so)."""
    plain_tiles = tuple(plain(t) for t in meld.tiles)
    slots: list[set[Tile]] = [set() for _ in range(meld.jokers)]
    for reading in meld.readings(rules):
        if reading.kind is MeldKind.RUN and reading.laid_out() != plain_tiles:
            continue
        for option in reading.joker_options(rules):
            if reading.kind is MeldKind.RUN:
                for slot, tile in zip(slots, option, strict=True):
                    slot.add(tile)
            else:
                for slot in slots:
                    slot.update(option)
    return slots


def _tag_meld(meld: Meld, rules: RuleSet, tags: Sequence[TableJoker], rest: Tile) -> Meld:
    """The meld with its jokers replaced by ``tags`` (each where the meld declares its
    meaning, else where that meaning lies as laid out, when it can) and ``rest`` for the
    jokers left over."""
    slots = _slot_meanings(meld, rules)
    declared = meld.declared or (None,) * meld.jokers
    chosen: list[Tile | None] = [None] * meld.jokers
    left = list(tags)
    for tag in list(left):  # first each tag to a slot declared, else standing, for its tile
        k = next((k for k, d in enumerate(declared) if chosen[k] is None and d == tag.means), None)
        if k is None:
            k = next((k for k, s in enumerate(slots) if chosen[k] is None and tag.means in s), None)
        if k is not None:
            chosen[k] = tag
            left.remove(tag)
    for k in range(meld.jokers):
        if chosen[k] is None:
            chosen[k] = left.pop(0) if left else rest
    it = iter(chosen)
    return Meld(tuple(next(it) or rest if t.is_joker else t for t in meld.tiles), meld.declared)


def joker_plan(
    position: Position,
    new_table: Sequence[Meld],
    placed: Sequence[Tile],
    hosts_first: Sequence[int] = (),
) -> JokerPlan | None:
    """The move's tables with their jokers tagged, under the ``strict`` and ``locked`` rules
    (None under ``free``, without table jokers, or for a move the rule does not allow). A
    freed joker goes to the new melds ``hosts_first`` (where the move has table jokers)
    when it can."""
    rules = position.rules
    if rules.joker_rule is JokerRule.FREE or not any(m.jokers for m in position.table):
        return None
    counts = Counter(placed)
    allows = opening_allows(position, counts)  # an opening turn's meld keeps its tiles
    witness = table_joker_witness(position, new_table, counts, hosts_first, allows)
    if witness is None:
        return None
    old = list(position.table)
    freed: list[Tile] = []
    for i, (stays, goes) in witness.old.items():
        tags = [tagged(Role.STAYS, t) for t in stays] + [tagged(Role.FREED, t) for t in goes]
        old[i] = _tag_meld(old[i], rules, tags, JOKER)
        freed += goes
    hosts = dict(witness.hosts) if witness.hosts is not None else {}
    if witness.hosts is None:  # locked: the freed jokers fill free slots, first come
        order = sorted(range(len(new_table)), key=lambda j: j not in hosts_first)
        for j in order:
            room = new_table[j].jokers - len(witness.new.get(j, ()))
            if room and len(freed) > sum(hosts.values()):
                hosts[j] = min(room, len(freed) - sum(hosts.values()))
    new = list(new_table)
    for j, meld in enumerate(new_table):
        if not meld.jokers:
            continue
        tags = [tagged(Role.STAYS, t) for t in witness.new.get(j, ())]
        for _ in range(hosts.get(j, 0)):
            tags.append(tagged(Role.HOSTED, freed.pop()))
        new[j] = _tag_meld(meld, rules, tags, JOKER)
    strict = rules.joker_rule is JokerRule.STRICT
    fresh = frozenset(hosts) if strict else frozenset()
    return JokerPlan(tuple(old), tuple(new), fresh)
