"""Rendering reports (recaps, sheets) through templates the user may shadow, as Markdown or HTML.

A shell layer: the rulesets' command lines use it, the pure rules and the parts never do (they
build the plain data a template reads). :mod:`.templates` finds and loads the templates,
:mod:`.text` makes user text safe for Markdown and turns Markdown notes into sanitized HTML.
"""

from yarnlog.render.templates import Templates, template_folders
from yarnlog.render.text import MarkdownSafe, markdown_html, markdown_literal, plain_text

__all__ = ["MarkdownSafe", "Templates", "markdown_html", "markdown_literal", "plain_text", "template_folders"]
