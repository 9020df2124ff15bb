"""Finding and rendering report templates: the user's folder first, then the ruleset's, then ours.

yarnlog's templates live in the repository's top-level ``templates/`` (``templates/<ruleset>/``), which
the build ships inside the wheel as ``yarnlog/templates/`` (:func:`shipped_templates` finds either).
A ruleset names its own folder in ``Ruleset.templates`` as ``package/folder``: yarnlog's are
``"yarnlog/templates/<name>"``, a third party's ``"mygame/templates"`` inside its own package. A user
shadows any of them file by file: a ``recap.md.j2`` in the folder given with ``--templates DIR`` (or
``YARNLOG_TEMPLATES``) replaces that one file and no other.

Two escaping regimes, chosen by the template's name:

- ``*.html.j2``: Jinja2's autoescape, so every value is HTML-escaped unless a filter marked it
  safe (``markdown`` turns a note into sanitized HTML);
- ``*.md.j2``: every value is made literal Markdown as it is written out (the ``finalize`` hook),
  unless it is a :class:`~yarnlog.render.text.MarkdownSafe` the template built itself.

Either way control characters never reach the output.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from yarnlog.render.text import MarkdownSafe, markdown_html, markdown_literal, plain_text

#: The shared templates every ruleset's may extend (the HTML page and its style).
BASE_TEMPLATES = "yarnlog/templates"


def shipped_templates() -> Path:
    """yarnlog's own templates: ``yarnlog/templates/`` in an installed wheel, else (a source
    checkout, an editable install) the repository's top-level ``templates/``."""
    package = Path(__file__).resolve().parent.parent
    inside = package / "templates"
    # Judged by the shared page, not the folder: a checkout that once held yarnlog/templates/ may
    # keep an empty folder of bytecode there.
    return inside if (inside / "page.html.j2").is_file() else package.parent / "templates"


def template_folder(location: str) -> Path:
    """The folder ``package/folder`` names (``yarnlog/templates/mygame``: yarnlog's ``mygame`` folder)."""
    import importlib.resources

    package, _, folder = location.partition("/")
    top, _, rest = folder.partition("/")
    if package == "yarnlog" and top == "templates":
        return shipped_templates() / rest
    return Path(str(importlib.resources.files(package) / folder))


def _package_loader(location: str) -> jinja2.BaseLoader:
    return jinja2.FileSystemLoader(template_folder(location))


def template_folders(user: str | Path | None, ruleset_templates: str | None) -> list[str]:
    """Where templates are looked for, in order (for error messages and ``--help``)."""
    found = [str(user)] if user else []
    return found + [f"package {where}" for where in (ruleset_templates, BASE_TEMPLATES) if where]


def _markdown_value(value: Any) -> Any:
    return markdown_literal(value) if isinstance(value, str) else value


def _html_value(value: Any) -> Any:
    return value if isinstance(value, Markup) else plain_text(value) if isinstance(value, str) else value


class Templates:
    """The templates one report renders with: ``render("recap.md.j2", recap=...)``.

    ``user`` is a folder whose files shadow the defaults one by one; it must exist.
    """

    def __init__(self, ruleset_templates: str | None = None, user: str | Path | None = None):
        loaders: list[jinja2.BaseLoader] = []
        if user is not None:
            folder = Path(user)
            if not folder.is_dir():
                raise FileNotFoundError(f"templates folder {folder} does not exist")
            loaders.append(jinja2.FileSystemLoader(folder))
        loaders += [_package_loader(where) for where in (ruleset_templates, BASE_TEMPLATES) if where]
        self.loader = jinja2.ChoiceLoader(loaders)
        common: dict[str, Any] = dict(loader=self.loader, undefined=jinja2.StrictUndefined,
                                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
        self.html = jinja2.Environment(autoescape=True, finalize=_html_value, **common)
        self.markdown = jinja2.Environment(autoescape=False, finalize=_markdown_value, **common)
        self.html.filters["markdown"] = lambda text: Markup(markdown_html(text))
        # A note stays literal in Markdown output: its raw HTML or links must not come alive in a
        # chat, a wiki or Obsidian, which render both.
        self.markdown.filters["markdown"] = lambda text: MarkdownSafe(markdown_literal(text))
        for env in (self.html, self.markdown):
            env.filters["plural"] = _plural
            env.filters["signed"] = lambda n: f"{n:+d}"

    def environment(self, name: str) -> jinja2.Environment:
        """The HTML environment for ``*.html*`` templates, the Markdown one for the others."""
        return self.html if ".html" in Path(name).suffixes else self.markdown

    def render(self, template: str, /, **context: Any) -> str:
        return self.environment(template).get_template(template).render(**context)

    def names(self) -> Sequence[str]:
        return sorted(set(self.loader.list_templates()))


def _plural(count: int, one: str, many: str | None = None) -> str:
    """``3|plural("token")`` is ``3 tokens``; ``1|plural("benny", "bennies")`` is ``1 benny``."""
    return f"{count} {one if count == 1 else many or one + 's'}"
