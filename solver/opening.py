"""The opening turn when the rules let it go on to the table (``continue_after_initial``).

Under the default rules the opening meld is made of rack tiles alone and the table is not
touched (``formulate`` handles that in its initial-meld mode). With
``RuleSet.continue_after_initial`` the player first lays down sets made only of rack tiles,
worth at least ``initial_threshold``, and may then go on as in an ordinary turn: add rack
tiles to table melds and rearrange the table, the melds just laid down included. Only the
end of the turn is checked, so the move is

* an ordinary move (every table tile and every placed tile in a legal set), whose
* placed tiles contain some sets worth at least the threshold (the opening meld).

The opening meld need not survive on the final table (its tiles may have been moved on).
The model is the ordinary-turn formulation plus *witness* columns:

* ``w[s]``  copies of catalogue set ``s`` in the opening meld (rack tile types only),
* ``o``     1 when anything is placed (then the opening must be made),

with, for every tile type t on the rack,  sum_s a[t,s] w[s] <= y[t]  (the opening uses
placed tiles), and  sum_s value[s] w[s] >= threshold * o,  sum_t y[t] <= rack_size * o.
The witness columns are not part of the new table: they only prove that an opening meld
exists among the placed tiles, so they are not decisions (no-good cuts ignore them).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from rummikub.models.position import Position
from rummikub.solver.catalogue import catalogue
from rummikub.solver.program import Extension, Formulation


def continues_onto_table(position: Position) -> bool:
    """Whether this is an opening turn that may go on to the table under its rules."""
    return position.initial and position.rules.continue_after_initial


def as_played(position: Position) -> Position:
    """The position the opening turn is solved in: an ordinary turn (the opening is then a
    constraint of the model, see :func:`add_opening_witness`)."""
    return replace(position, initial=False) if continues_onto_table(position) else position


def add_opening_witness(model: Formulation, position: Position) -> None:
    """Require the placed tiles of an ordinary-turn model to hold an opening meld.

    ``model`` must be the formulation of :func:`as_played` ``(position)``.
    """
    rules = position.rules
    rack = Counter(rules.index(t) for t in position.rack)
    placed_var = {t: var for var, t in model.placed.items()}
    if not placed_var:
        return
    witness: list[tuple[int, int]] = []  # (w var, set value)
    uses: dict[int, list[tuple[int, int]]] = {t: [] for t in placed_var}
    for s in catalogue(rules):
        upper = min((rack[t] // a for t, a in s.counts), default=0)
        if upper <= 0:
            continue
        var = model.add_variable(f"w{len(witness)}", 0, upper)
        witness.append((var, s.value))
        for t, a in s.counts:
            uses[t].append((var, a))
    # A table joker freed later in the turn is swapped for a tile still on the rack: not one
    # the opening meld has already laid down.
    swapped: dict[int, list[tuple[int, int]]] = {}
    if model.table_jokers is not None:
        for jokers in model.table_jokers.melds:
            for t, var in jokers.freed.items():
                swapped.setdefault(t, []).append((var, 1))
    for t, terms in sorted(uses.items()):
        if terms:
            name = f"opening uses placed [{rules.tile_types[t]}]"
            model.at_most(name, (*terms, *swapped.get(t, ()), (placed_var[t], -1)), 0)
    _open_or_nothing(model, tuple(witness), sum(rack.values()))


def _open_or_nothing(
    model: Formulation, value: tuple[tuple[int, int], ...], rack_size: int
) -> None:
    """``o`` = 1 when anything is placed, and then the opening is worth the threshold:
    ``value >= threshold * o`` and ``sum_t y[t] <= rack_size * o``. It holds a set even
    when the threshold is 0 (every set is worth more than 0, so the bound is at least 1)."""
    opened = model.add_variable("o", 0, 1)
    need = max(model.rules.initial_threshold, 1)
    model.at_least("opening value", (*value, (opened, -need)), 0)
    placed = tuple((var, 1) for var in model.placed)
    model.at_most("opening or nothing", (*placed, (opened, -rack_size)), 0)


class OpeningMeld(Extension):
    """The initial meld made of rack tiles alone (the table is not touched): the sets
    laid are worth at least the threshold, or nothing is placed."""

    def __init__(self, rack_size: int) -> None:
        self.rack_size = rack_size

    def add_constraints(self, model: Formulation) -> None:
        """The opening's value (jokers counted as the tiles they stand for) and ``o``."""
        if model.placed:
            value = tuple((var, s.value) for var, s in model.sets.items())
            _open_or_nothing(model, value, self.rack_size)
