"""The rule options every command shares (``--rules`` and one flag per ``RuleSet`` option).

The flags are made from the ``RuleSet`` fields themselves (:data:`rummikub.models.rules.OPTIONS`:
name, type, help text), so a new rule option needs no edit here.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import click

from rummikub.cli.errors import fail
from rummikub.models.errors import RummikubError
from rummikub.models.presets import PRESETS, resolve_rules
from rummikub.models.rules import OPTIONS, STANDARD, RuleOption, RuleSet, RuleValue

F = TypeVar("F", bound=Callable[..., Any])
REQUEST_KEY = "rules_request"  # where a command's RulesRequest waits in the click context


def _names() -> str:
    """``standard, american (also pressman, vietnamese), ...``: presets and their aliases."""
    return ", ".join(
        f"{p.name} (also {', '.join(p.aliases)})" if p.aliases else p.name for p in PRESETS.values()
    )


RULES_HELP = """
\b
Rules: a position file may say which rules it is played under (a
'rules:' line, or "rules" in JSON); else the standard game. --rules
names a preset ('rummikub rules' describes them), a TOML/JSON rules
file, or a rules line like 'american joker_rule=strict'; --wrap,
--threshold 50 etc. override single options (also the file's own).
"""


@dataclass(frozen=True)
class RulesRequest:
    """The rules asked for on the command line: ``--rules`` and single-option overrides."""

    spec: str | None = None
    overrides: dict[str, RuleValue] = field(default_factory=dict)

    @property
    def given(self) -> bool:
        """Whether any rule option was given on the command line."""
        return self.spec is not None or bool(self.overrides)

    def apply(self, written: RuleSet | None = None) -> RuleSet:
        """The rules to play under: ``written`` (what a position says; the standard game if
        None) replaced by ``--rules`` if given, then the single options on top."""
        return resolve_rules(self.spec, written, **self.overrides)


def current_request() -> RulesRequest | None:
    """The rules request of the running command, if it takes rule options."""
    context = click.get_current_context(silent=True)
    return context.meta.get(REQUEST_KEY) if context is not None else None


def rules_for(written: RuleSet | None, given: RuleSet | None = None) -> RuleSet:
    """The rules of a position that says it is played under ``written``: the command
    line's rule options over it. ``given`` serves commands without rule options."""
    request = current_request()
    if request is not None:
        try:
            return request.apply(written)
        except RummikubError as error:
            fail(flags_named(str(error), request))
    return given or written or STANDARD


def flags_named(message: str, request: RulesRequest) -> str:
    """A rules error about options given as flags, naming the flags the user typed
    (``--threshold``) rather than the fields (``initial_threshold``)."""
    for option in OPTIONS:
        if option.name in request.overrides:
            message = re.sub(rf"\b{option.name}\b", f"--{option.flag}", message)
    return message


def _show(value: RuleValue) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _flag(option: RuleOption) -> Callable[[F], F]:
    """The click option of one rule option, named by its field and defaulting to None."""
    text = f"{option.help} Standard: {_show(option.default)}."
    if option.kind is bool:
        return click.option(
            f"--{option.flag}/--no-{option.flag}", option.name, default=None, help=text
        )
    if option.choices:
        return click.option(
            f"--{option.flag}", option.name, type=click.Choice(option.choices), help=text
        )
    return click.option(f"--{option.flag}", option.name, type=int, metavar="N", help=text)


def rules_options(func: F) -> F:
    """Add --rules and one flag per rule option; the command receives ``rules`` (a RuleSet:
    the command line's rules over the standard game). The request itself is left in the
    click context for positions that carry their own rules (see :func:`rules_for`)."""
    return _with_rules_options(func, "the position's own rules, else standard")


def standard_rules_options(func: F) -> F:
    """:func:`rules_options` for a command without a position (the default: standard)."""
    return _with_rules_options(func, "standard")


def _with_rules_options(func: F, default: str) -> F:
    """--rules (its default named by ``default``) and one flag per rule option."""

    @functools.wraps(func)
    def wrapper(*args: Any, rules_spec: str | None = None, **kwargs: Any) -> Any:
        overrides = {o.name: kwargs.pop(o.name) for o in OPTIONS}
        request = RulesRequest(rules_spec, {k: v for k, v in overrides.items() if v is not None})
        context = click.get_current_context()
        context.meta[REQUEST_KEY] = request
        context.meta["rules_given"] = request.given
        return func(*args, rules=rules_for(None), **kwargs)

    options: list[Callable[[Any], Any]] = [
        click.option(
            "--rules",
            "rules_spec",
            metavar="NAME|FILE|LINE",
            help=f"Rule preset ({_names()}), a TOML/JSON rules file, or a rules line like "
            f"'american joker_rule=strict'. Default: {default}.",
        ),
        *(_flag(option) for option in OPTIONS),
    ]
    result: Any = wrapper
    for option in reversed(options):
        result = option(result)
    return result  # type: ignore[no-any-return]
