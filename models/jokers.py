"""How jokers already on the table may be used: the three table-joker rules."""

from __future__ import annotations

from enum import StrEnum


class JokerRule(StrEnum):
    """What a player may do with a joker that is already on the table.

    * ``free`` (default, as in den Hertog & Hulshof): table jokers move like any tile and
      may stand for anything.
    * ``strict`` (official rules): a table joker is taken only by replacing it with the tile
      it stands for from the rack (for a 3-tile group, either missing colour); the freed
      joker must go into a new meld together with at least two (non-joker) tiles from the
      rack. A joker not freed keeps standing for the same tile.
    * ``locked``: as strict, but a freed joker may be used anywhere this turn.
    """

    FREE = "free"
    STRICT = "strict"
    LOCKED = "locked"
