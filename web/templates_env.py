"""The Jinja2 templates of the pages (``templates/``), with what every page draws: the
tiles' colours, the rule presets and the table-joker rules."""

from __future__ import annotations

from pathlib import Path

import jinja2
from starlette.templating import Jinja2Templates

from rummikub.models.presets import PRESETS
from rummikub.models.rules import JOKER_RULES
from rummikub.web import pictures

TEMPLATES = Path(__file__).parent / "templates"

environment = jinja2.Environment(
    loader=jinja2.FileSystemLoader(TEMPLATES),
    autoescape=jinja2.select_autoescape(["html"]),
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
environment.globals["ink_classes"] = pictures.ink_classes()
environment.globals["presets"] = list(PRESETS.values())
environment.globals["joker_rules"] = JOKER_RULES
templates = Jinja2Templates(env=environment)


def bare_page(status: int, message: str) -> str:
    """A page that only says what went wrong (for refusals made before any route runs)."""
    template = environment.get_template("error.html")
    return template.render(status=status, error=message, csrf="", path="")
