"""How jokers already on the table may be used: the three table-joker rules."""

from __future__ import annotations

from enum import StrEnum


class JokerRule(StrEnum):
    """What a player may do with a joker that is already on the table.

    * ``free`` (default, as in den Hertog & Hulshof): table jokers move like any tile and
      may stand for anything.
    * ``strict`` (the printed rule sheets): a table joker is taken only by replacing it with
      the tile it stands for from the rack (for a 3-tile group, either missing colour); the
      freed joker must go into a new meld together with at least two (non-joker) tiles from
      the rack. A joker not freed stays with its set: it ends the turn in a meld that holds
      at least one real tile of its old meld, standing for the same tile (its set may be
      extended, split or joined; the joker goes along with part of it, never alone nor into
      a set made only of other tiles).
    * ``locked``: as strict, but a freed joker may be used anywhere this turn.

    Under every rule a player who places no tile leaves the table as it was.
    """

    FREE = "free"
    STRICT = "strict"
    LOCKED = "locked"
