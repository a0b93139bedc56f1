"""Named rule sets (presets) and rules files.

A preset is a :class:`~rummikub.models.rules.RuleSet` with a name and a one-line
description. A rules file (TOML or JSON) holds rule options by their ``RuleSet`` field
names, optionally on top of a preset::

    preset = "american"      # optional base; the standard game when absent
    wrap = true
    max_jokers_per_set = 1
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from difflib import get_close_matches
from pathlib import Path
from typing import Any

from rummikub.models.errors import RulesError
from rummikub.models.rules import RULE_OPTIONS, RuleSet

MAX_RULES_FILE_BYTES = 100_000  # a rules file is a few lines


@dataclass(frozen=True, slots=True)
class Preset:
    """A named rule set and what it is."""

    name: str
    description: str
    rules: RuleSet


def _presets(*items: tuple[str, str, dict[str, Any]]) -> dict[str, Preset]:
    return {name: Preset(name, text, RuleSet(**options)) for name, text, options in items}


PRESETS: dict[str, Preset] = _presets(
    (
        "standard",
        "The standard game: 4 colours x 1-13 x 2 + 2 jokers, opening meld 30, no wrap-around.",
        {},
    ),
    (
        "sabra",
        "Hertzano's original 'Sabra' rules (the Polish source): opening 30, joker penalty 30.",
        {},
    ),
    (
        "american",
        "The 1998 Pressman American edition: the opening meld must be worth 50.",
        {"initial_threshold": 50},
    ),
    (
        "vietnamese",
        "The edition of the Vietnamese source: at most one joker per set.",
        {"max_jokers_per_set": 1},
    ),
    (
        "wrap",
        "House rule: runs may go round the top (12-13-1, 13-1-2).",
        {"wrap": True},
    ),
)
DEFAULT_PRESET = "standard"


def preset_names() -> list[str]:
    """The names of every preset, in registry order."""
    return list(PRESETS)


def preset(name: str) -> RuleSet:
    """The rule set of a preset by name (case-insensitive); :class:`RulesError` if unknown."""
    found = PRESETS.get(name.strip().lower())
    if found is None:
        raise RulesError(
            f"unknown rules preset {name[:40]!r}: the presets are {', '.join(PRESETS)}"
        )
    return found.rules


def rules_from_mapping(options: object, where: str = "rules") -> RuleSet:
    """A rule set from ``{"preset": ..., field: value, ...}``; unknown keys name ``where``."""
    if not isinstance(options, dict):
        raise RulesError(f"{where}: rules must be a table of options, got {type(options).__name__}")
    base_name = options.get("preset", DEFAULT_PRESET)
    if not isinstance(base_name, str):
        raise RulesError(f"{where}: preset must be a preset name, got {base_name!r}")
    try:
        base = preset(base_name)
    except RulesError as error:
        raise RulesError(f"{where}: {error}") from None
    values: dict[str, Any] = base.options()
    for key, value in options.items():
        if key == "preset":
            continue
        if key not in RULE_OPTIONS:
            close = get_close_matches(str(key), RULE_OPTIONS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise RulesError(
                f"{where}: unknown rule option {str(key)[:40]!r}{hint}; "
                f"the options are preset, {', '.join(RULE_OPTIONS)}"
            )
        values[key] = value
    try:
        return RuleSet(**values)
    except RulesError as error:
        raise RulesError(f"{where}: {error}") from None


def rules_from_file(path: str | Path) -> RuleSet:
    """Load a rules file: TOML, or JSON when the name ends in ``.json`` or the text is an
    object (``{...}``). Keys are ``RuleSet`` field names and ``preset`` (the base)."""
    name = str(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_RULES_FILE_BYTES + 1)
    except OSError as error:
        raise RulesError(f"cannot read rules file {name}: {error.strerror or error}") from None
    if len(data) > MAX_RULES_FILE_BYTES:
        raise RulesError(f"rules file {name}: larger than {MAX_RULES_FILE_BYTES} bytes")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise RulesError(f"rules file {name}: not UTF-8 (bad byte at {error.start})") from None
    options: object
    if name.lower().endswith(".json") or text.lstrip().startswith("{"):
        try:
            options = json.loads(text)
        except json.JSONDecodeError as error:
            raise RulesError(
                f"rules file {name}: bad JSON: {error.msg} at line {error.lineno}"
            ) from None
        except RecursionError:
            raise RulesError(f"rules file {name}: bad JSON: nested too deeply") from None
    else:
        try:
            options = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise RulesError(f"rules file {name}: bad TOML: {error}") from None
    return rules_from_mapping(options, f"rules file {name}")


def resolve_rules(spec: str | None = None, **overrides: Any) -> RuleSet:
    """A preset name or a rules file (``None``: the standard game), then ``overrides``
    (``RuleSet`` field names; ``None`` values are ignored)."""
    if spec is None:
        base = preset(DEFAULT_PRESET)
    elif spec.strip().lower() in PRESETS:
        base = preset(spec)
    elif Path(spec).is_file():
        base = rules_from_file(spec)
    else:
        raise RulesError(
            f"rules {spec[:60]!r}: neither a preset ({', '.join(PRESETS)}) nor a readable file"
        )
    changed = {k: v for k, v in overrides.items() if v is not None}
    if not changed:
        return base
    unknown = sorted(set(changed) - set(RULE_OPTIONS))
    if unknown:
        raise RulesError(f"unknown rule option {unknown[0]!r}")
    return RuleSet(**(base.options() | changed))


__all__ = [
    "PRESETS",
    "Preset",
    "preset",
    "preset_names",
    "resolve_rules",
    "rules_from_file",
    "rules_from_mapping",
]
