"""``rummikub serve``: the solver and the game companion as a web app for a phone at the table.

A thin face over the library, beside the command line: each route parses what the page or
the JSON API sent, calls the library (:mod:`rummikub.solver`, :mod:`rummikub.game`,
:mod:`rummikub.analysis`) and renders the answer; no rule, validation or scoring lives
here. Needs the ``web`` extra (``pip install 'rummikub[web]'``): Starlette, Jinja2, uvicorn.
"""
