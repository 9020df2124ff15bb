"""The render foundation: user text stays data, templates shadow file by file, and ship in the wheel."""

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from yarnlog.render import Templates, markdown_html, markdown_literal, plain_text

ROOT = Path(__file__).resolve().parents[2]

HOSTILE = ["<script>alert(1)</script>", "**x**", "[a](javascript:alert(1))", "# heading", "1. item",
           "`code`", "a | b", "&lt;b&gt;", "![img](http://x/y.png)", "- item", "> quote", "~~gone~~",
           "under_score_", "<img src=x onerror=alert(1)>", "\\*escaped\\*"]


@pytest.mark.parametrize("text", HOSTILE)
def test_markdown_literal_renders_as_the_very_characters(text):
    # Rendered by a CommonMark engine with raw HTML, tables and strikethrough on (as GitHub,
    # Obsidian and chats render), the result is one paragraph whose text is exactly the input.
    import html

    from markdown_it import MarkdownIt

    engine = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    rendered = engine.render(markdown_literal(text)).strip()
    assert rendered.startswith("<p>") and rendered.endswith("</p>")
    inner = rendered.removeprefix("<p>").removesuffix("</p>")
    assert "<" not in inner
    assert html.unescape(inner) == text


@pytest.mark.parametrize("text", HOSTILE)
def test_markdown_literal_reads_the_same_in_python_markdown(text):
    # Python-Markdown (MkDocs, many wikis) takes no backslash before < & | ~: those are references.
    import html

    import markdown

    rendered = markdown.markdown(markdown_literal(text)).strip()
    assert rendered.startswith("<p>") and rendered.endswith("</p>")
    inner = rendered.removeprefix("<p>").removesuffix("</p>")
    assert "<" not in inner
    assert html.unescape(inner) == text


def test_markdown_literal_keeps_one_line_and_shows_control_characters():
    # As the README says and a terminal shows them: an escape as \u241b, never dropped nor obeyed.
    assert markdown_literal("Iris\n# not a heading\x1b[31m") == "Iris # not a heading\u241b\\[31m"
    assert markdown_literal("bell\x07 del\x7f csi\x9b rlo\u202e") == "bell\u2407 del\u2421 csi\ufffd rlo\ufffd"
    assert markdown_literal("# heading") == "\\# heading"
    assert plain_text("a\x00b\x07c\td\ne\x9b") == "ab" + "c\td\ne"
    assert plain_text("\u202egnirts\u202c \u2067isolate\u2069") == "gnirts isolate"


@pytest.mark.parametrize("text", ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>",
                                  "[a](javascript:alert(1))", "<a href='javascript:x'>y</a>",
                                  "<iframe src=http://x></iframe>"])
def test_markdown_html_never_lets_raw_html_or_unsafe_links_through(text):
    from html.parser import HTMLParser

    elements = []

    class Collect(HTMLParser):
        def handle_starttag(self, tag, attrs):
            elements.append((tag, dict(attrs)))

    Collect().feed(markdown_html(text))
    assert {tag for tag, _ in elements} <= {"p", "a"}
    for _, attrs in elements:
        assert not any(name.startswith("on") for name in attrs)
        assert not attrs.get("href", "http:").lower().startswith("javascript")


def test_a_link_in_a_note_stays_but_is_safe_and_says_where_it_goes():
    """Issue 21 item 8: http(s) and mailto only, never followed by crawlers nor given the opener, the
    target's host shown beside the text (a link's text may say anything)."""
    from html.parser import HTMLParser

    links: list[dict[str, str | None]] = []

    class Collect(HTMLParser):
        def handle_starttag(self, tag, attrs):
            if tag == "a":
                links.append(dict(attrs))

    out = markdown_html("[web](http://evil.example/x) [bank](HTTPS://Bank.example:8443/login) "
                        "[write](mailto:gm@table.example) [f](ftp://files.example/y) [r](/relative) "
                        "[d](data:text/html,x) <https://auto.example/z>")
    Collect().feed(out)
    hrefs = [link.get("href") for link in links]
    assert hrefs == ["http://evil.example/x", "HTTPS://Bank.example:8443/login", "mailto:gm@table.example",
                     "https://auto.example/z"], out
    assert all(link.get("rel") == "nofollow noopener noreferrer" for link in links), out
    assert ">web</a> (evil.example)" in out and ">bank</a> (bank.example)" in out
    assert ">write</a> (gm@table.example)" in out
    assert "f r d" in out and "files.example" not in out.replace("ftp://files.example", "")
    assert ">https://auto.example/z</a> (" not in out  # a bare address says its host itself


def test_markdown_html_keeps_the_formatting_of_a_note():
    out = markdown_html("**bold** and *soft*\n\n- one\n- two\n\n[book](https://example.org)")
    assert "<strong>bold</strong>" in out and "<em>soft</em>" in out and "<li>one</li>" in out
    assert 'href="https://example.org"' in out


def test_html_templates_escape_values_and_markdown_ones_make_them_literal(tmp_path):
    (tmp_path / "t.html.j2").write_text("<p>{{ name }}</p>{{ note|markdown }}")
    (tmp_path / "t.md.j2").write_text("- {{ name }}\n")
    templates = Templates(user=tmp_path)
    html = templates.render("t.html.j2", name="<b>Iris</b>\x1b", note="*hi* <script>x</script>")
    assert "<p>&lt;b&gt;Iris&lt;/b&gt;</p>" in html and "<em>hi</em>" in html and "<script>" not in html
    assert templates.render("t.md.j2", name="**Iris**") == "- \\*\\*Iris\\*\\*\n"


def test_a_users_folder_shadows_the_defaults_file_by_file(tmp_path):
    defaults = Templates("yarnlog/templates/yarn")
    assert "page.html.j2" in defaults.names()
    (tmp_path / "page.html.j2").write_text("mine")
    shadowed = Templates("yarnlog/templates/yarn", user=tmp_path)
    assert shadowed.render("page.html.j2") == "mine"
    assert set(defaults.names()) <= set(shadowed.names())


def test_a_missing_templates_folder_is_an_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        Templates(user=tmp_path / "nowhere")


def test_the_default_page_is_standalone(tmp_path):
    (tmp_path / "p.html.j2").write_text("{% extends 'page.html.j2' %}{% block body %}<h1>{{ t }}</h1>{% endblock %}")
    page = Templates(user=tmp_path).render("p.html.j2", t="Recap")
    assert page.startswith("<!DOCTYPE html>") and "<style>" in page and "<h1>Recap</h1>" in page
    assert "<script" not in page and "http://" not in page and "https://" not in page


@pytest.mark.slow
def test_the_wheel_ships_the_top_level_templates_inside_the_package(tmp_path):
    # Built from a copy of the sources, so the working tree gets no build/ folder.
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for folder in ("yarnlog", "templates"):
        shutil.copytree(ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                    "-w", str(tmp_path / "dist"), str(source)], check=True, capture_output=True)
    wheel, = (tmp_path / "dist").glob("yarnlog-*.whl")
    shipped = set(zipfile.ZipFile(wheel).namelist())
    defaults = {"yarnlog/" + str(p.relative_to(ROOT)) for p in (ROOT / "templates").rglob("*.j2")}
    assert "yarnlog/templates/yarn/recap.md.j2" in defaults and defaults <= shipped
    # Installed from the wheel, the package finds them inside itself.
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)
    probe = ("import sys; sys.path.insert(0, sys.argv[1]); from yarnlog.render.templates import shipped_templates, "
             "Templates; print(shipped_templates()); "
             "print(Templates('yarnlog/templates/yarn').loader.get_source(Templates().markdown, 'recap.md.j2')[1])")
    out = subprocess.run([sys.executable, "-c", probe, str(target)], capture_output=True, text=True, check=True,
                         cwd=tmp_path).stdout.split()
    inside = target / "yarnlog" / "templates"
    assert out == [str(inside), str(inside / "yarn" / "recap.md.j2")]


def test_a_source_checkout_reads_the_top_level_templates():
    """An editable install (this test run's) has no yarnlog/templates: it renders from templates/."""
    from yarnlog.render.templates import shipped_templates, template_folder

    assert not (ROOT / "yarnlog" / "templates" / "page.html.j2").exists()
    assert shipped_templates() == ROOT / "templates"
    assert template_folder("yarnlog/templates/dramasystem") == ROOT / "templates" / "dramasystem"
    templates = Templates("yarnlog/templates/yarn")
    _, found, _ = templates.loader.get_source(templates.markdown, "recap.md.j2")
    assert found == str(ROOT / "templates" / "yarn" / "recap.md.j2")


def test_a_checkout_with_an_old_templates_folder_of_bytecode_still_reads_the_top_level(tmp_path):
    """A checkout made before the templates moved keeps yarnlog/templates/__pycache__ (git-ignored):
    that empty folder is no wheel's templates."""
    package = tmp_path / "yarnlog"
    (package / "render").mkdir(parents=True)
    (package / "render" / "templates.py").write_text((ROOT / "yarnlog" / "render" / "templates.py").read_text())
    (package / "templates" / "__pycache__").mkdir(parents=True)
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "page.html.j2").write_text("page")
    probe = ("import importlib.util, sys; spec = importlib.util.spec_from_file_location('t', sys.argv[1]); "
             "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); print(m.shipped_templates())")
    out = subprocess.run([sys.executable, "-c", probe, str(package / "render" / "templates.py")],
                         capture_output=True, text=True, check=True).stdout.strip()
    assert out == str(tmp_path / "templates")
