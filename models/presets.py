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
import re
import tomllib
from dataclasses import dataclass
from difflib import get_close_matches
from pathlib import Path
from typing import Any

from rummikub.models.errors import RulesError
from rummikub.models.jokers import JokerRule
from rummikub.models.rules import RULE_OPTIONS, RuleOption, RuleSet, RuleValue, option_named

MAX_RULES_FILE_BYTES = 100_000  # a rules file is a few lines


@dataclass(frozen=True, slots=True)
class Preset:
    """A named rule set, what it is for a player, and other names it goes by."""

    name: str
    description: str
    rules: RuleSet
    aliases: tuple[str, ...] = ()


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset(
            "standard",
            "The standard game: 4 colours x 1-13 x 2 + 2 jokers, sets of 3 or more, up to two "
            "jokers in a set, opening meld worth 30, no wrap-around.",
            RuleSet(),
        ),
        Preset(
            "american",
            "The 1998 Pressman American edition as the Vietnamese Wikipedia article describes "
            "it: opening meld worth 30, at most one joker in a set ('joker, orange 8, joker' "
            "is not a set). The article gives no rule for jokers already on the table, so they "
            "move freely here; the printed Pressman sheets let a player take a table joker only "
            "by putting its tile from the rack in its place: write 'american joker_rule=strict' "
            "for that (some sheets also let the replacing tile come from the table, which no "
            "option models).",
            RuleSet(max_jokers_per_set=1),
            aliases=("pressman", "vietnamese"),
        ),
        Preset(
            "sabra",
            "Ephraim Hertzano's original 'Sabra' rules as the Polish text gives them: opening "
            "meld worth 30, up to two jokers in a set, a joker left on a rack costs 30, a match "
            "played to 200 points ('rummikub game new --target'). Its options are the standard "
            "game's.",
            RuleSet(),
        ),
        Preset(
            "wrap",
            "House rule on the standard game: runs may go round the top (12-13-1, 13-1-2).",
            RuleSet(wrap=True),
        ),
    )
}
ALIASES: dict[str, str] = {alias: p.name for p in PRESETS.values() for alias in p.aliases}
"""Other names of presets: ``vietnamese`` and ``pressman`` are ``american``."""
DEFAULT_PRESET = "standard"
_TRUE = {"yes", "true", "on", "1", "y"}
_FALSE = {"no", "false", "off", "0", "n"}


def preset_names() -> list[str]:
    """The names of every preset, in registry order (aliases not included)."""
    return list(PRESETS)


def _known_names() -> str:
    return ", ".join([*PRESETS, *ALIASES])


def find_preset(name: str) -> Preset | None:
    """The preset of a name or alias (case-insensitive), or None."""
    key = name.strip().lower()
    return PRESETS.get(ALIASES.get(key, key))


def preset(name: str) -> RuleSet:
    """The rule set of a preset by name or alias (case-insensitive); :class:`RulesError` if
    unknown."""
    found = find_preset(name)
    if found is None:
        raise RulesError(f"unknown rules preset {name[:40]!r}: the presets are {_known_names()}")
    return found.rules


def _option(key: object, where: str) -> RuleOption:
    found = option_named(str(key))
    if found is None:
        close = get_close_matches(str(key), RULE_OPTIONS, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise RulesError(
            f"{where}: unknown rule option {str(key)[:40]!r}{hint}; "
            f"the options are preset, {', '.join(RULE_OPTIONS)}"
        )
    return found


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
        if key != "preset":
            values[_option(key, where).name] = value
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
        except ValueError:  # an integer of more digits than Python converts
            raise RulesError(f"rules file {name}: bad JSON: a number too long to read") from None
    else:
        try:
            options = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise RulesError(f"rules file {name}: bad TOML: {error}") from None
        except RecursionError:
            raise RulesError(f"rules file {name}: bad TOML: nested too deeply") from None
        except ValueError:  # an integer of more digits than Python converts
            raise RulesError(f"rules file {name}: bad TOML: a number too long to read") from None
    return rules_from_mapping(options, f"rules file {name}")


def _is_file(spec: str) -> bool:
    """Whether ``spec`` names a file (a rules line longer than a file name can be is not)."""
    try:
        return Path(spec).is_file()
    except (OSError, ValueError):  # a name too long, or holding a NUL
        return False


def resolve_rules(
    spec: str | None = None, base: RuleSet | None = None, **overrides: Any
) -> RuleSet:
    """The rules of ``spec`` -- a preset name, a rules file or a rules line (``american
    joker_rule=strict``) -- or of ``base`` (the standard game) when ``spec`` is None, then
    ``overrides`` (``RuleSet`` field names; ``None`` values are ignored)."""
    if spec is None:
        rules = base or preset(DEFAULT_PRESET)
    elif find_preset(spec) is not None:
        rules = preset(spec)
    elif _is_file(spec):
        rules = rules_from_file(spec)
    elif "=" in spec or _presets_only(spec):
        rules = parse_rules_line(spec)
    else:
        raise RulesError(
            f"rules {spec[:60]!r}: neither a preset ({_known_names()}) nor a readable file"
        )
    changed = {_option(k, "rules").name: v for k, v in overrides.items() if v is not None}
    if not changed:
        return rules
    return RuleSet(**(rules.options() | changed))


def _presets_only(spec: str) -> bool:
    """Whether ``spec`` is several preset names (``american wrap``: a rules line that
    needs its options written as name=value), not a mistyped file name."""
    words = [w for w in re.split(r"[\s,]+", spec.strip()) if w]
    return len(words) > 1 and all(find_preset(w) is not None for w in words)


def _value(option: RuleOption, text: str, where: str) -> RuleValue:
    """A rule option's value written in a rules line: a number, yes/no, or a choice."""
    word = text.strip().lower()
    if option.kind is bool:
        if word in _TRUE | _FALSE:
            return word in _TRUE
        raise RulesError(f"{where}: {option.name} must be yes or no, got {text[:40]!r}")
    if option.kind is int:
        try:
            return int(word)
        except ValueError:
            raise RulesError(
                f"{where}: {option.name} must be a whole number, got {text[:40]!r}"
            ) from None
    return option.coerce(word)


def parse_rules_line(text: str, where: str = "rules") -> RuleSet:
    """Rules written on one line: an optional preset name, then ``option=value`` pairs
    separated by spaces or commas (``american joker_rule=strict``, ``wrap=yes threshold=50``).
    Options are ``RuleSet`` field names or command-line flag names."""
    tokens = [t for t in re.split(r"[\s,]+", re.sub(r"\s*=\s*", "=", text.strip())) if t]
    base: str | None = None
    values: dict[str, Any] = {}
    for token in tokens:
        key, sep, value = token.partition("=")
        if not sep:
            if base is not None:
                raise RulesError(
                    f"{where}: one preset at most, got {base!r} and {key[:40]!r} "
                    "(write options as name=value)"
                )
            base = key
            continue
        option = _option(key, where)
        if option.name in values:
            raise RulesError(f"{where}: {option.name} given twice ({key[:40]}={value[:40]} again)")
        values[option.name] = _value(option, value, where)
    try:
        return RuleSet(**(preset(base or DEFAULT_PRESET).options() | values))
    except RulesError as error:
        raise RulesError(f"{where}: {error}") from None


def _show(value: RuleValue) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _nearest(rules: RuleSet) -> tuple[Preset, dict[str, RuleValue]]:
    """The preset with the fewest options differing from ``rules``, and those options."""
    options = rules.options()

    def differing(p: Preset) -> dict[str, RuleValue]:
        base = p.rules.options()
        return {k: v for k, v in options.items() if base[k] != v}

    nearest = min(PRESETS.values(), key=lambda p: len(differing(p)))
    return nearest, differing(nearest)


def rules_line(rules: RuleSet) -> str:
    """The rules as one line :func:`parse_rules_line` reads back: the nearest preset and the
    options that differ from it (``american``, ``wrap joker_rule=strict``); ``standard`` for
    the standard game."""
    base, changes = _nearest(rules)
    return " ".join([base.name, *(f"{k}={_show(v)}" for k, v in changes.items())])


def rules_object(rules: RuleSet) -> dict[str, RuleValue | str]:
    """The rules as a JSON-ready object :func:`rules_from_mapping` reads back: the nearest
    preset and the options that differ from it."""
    base, changes = _nearest(rules)
    return {"preset": base.name, **{k: _json_value(v) for k, v in changes.items()}}


def _json_value(value: RuleValue) -> RuleValue | str:
    return str(value) if isinstance(value, JokerRule) else value


__all__ = [
    "ALIASES",
    "PRESETS",
    "Preset",
    "find_preset",
    "parse_rules_line",
    "preset",
    "preset_names",
    "resolve_rules",
    "rules_from_file",
    "rules_from_mapping",
    "rules_line",
    "rules_object",
]
