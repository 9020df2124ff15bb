"""The pictures of a campaign (yarnlog.render.diagrams): Mermaid for Markdown and inline SVG for
HTML, from the relationship map and the token series. User text is data: hostile names come out
inert, the SVG has no script, no event handler and no external reference, and the same data
always gives the same bytes."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from yarnlog.core.charts import TokenLine, TokenSeries
from yarnlog.core.corrections import effective
from yarnlog.render.diagrams import (
    PALETTE,
    SVG_NS,
    mermaid_text,
    plain,
    relationship_map_mermaid,
    relationship_map_svg,
    token_series_mermaid,
    token_series_svg,
    token_series_table,
)
from yarnlog.rulesets.scenes_and_tokens.parts.economy import ledger_entries
from yarnlog.rulesets.scenes_and_tokens.parts.relationship_map import (
    PC,
    RECURRING,
    CharacterNode,
    RelationshipEdge,
    RelationshipGraph,
    WantEdge,
)
from yarnlog.rulesets.yarn.parts.characters.relationship_graph import relationship_graph
from yarnlog.rulesets.yarn.parts.economy.token_series import token_series

from .sample_harbor import CID, harbor_journal

HOSTILE = [
    'Bob "the Knife"',
    "<script>alert(1)</script>",
    "Mal]\"] --> x[\"pwn",
    "two\nlines\r\nand a\ttab",
    "**bold** _it_ `code` [link](javascript:alert(1))",
    "#quot; #60; &amp; %% comment; |pipe|",
    "Zoë \u202eevil\u202c \x00nul",
    "$$x^2$$ {curly} <img src=x onerror=alert(1)>",
]

SVG = f"{{{SVG_NS}}}"


def hostile_graph() -> RelationshipGraph:
    nodes = tuple(CharacterNode(name, f"player {i} <b>", PC) for i, name in enumerate(HOSTILE[:4]))
    nodes += (CharacterNode(HOSTILE[4], None, RECURRING),)
    names = [n.name for n in nodes]
    relationships = tuple(RelationshipEdge(names[i], names[i + 1], HOSTILE[(i + 5) % len(HOSTILE)])
                          for i in range(len(names) - 1))
    wants = (WantEdge(names[0], names[1], HOSTILE[6], True), WantEdge(names[1], names[0], HOSTILE[7], False),
             WantEdge(names[2], names[4], HOSTILE[1], False))
    return RelationshipGraph(nodes, relationships, wants)


def hostile_series() -> TokenSeries:
    return TokenSeries(episode=2, scenes=(4, 5, 7), lines=tuple(
        TokenLine(name, HOSTILE[-1 - i] if i % 2 else None, (0, i % 3, (i + 1) % 4, i % 2))
        for i, name in enumerate(HOSTILE)))


@pytest.fixture(scope="module")
def harbor_state():
    return harbor_journal().state(CID)


@pytest.fixture(scope="module")
def harbor_ledger():
    return ledger_entries(effective(harbor_journal().history(CID)))


# -- SVG ----------------------------------------------------------------------------------------


def parsed(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    return root


def assert_inert(root: ET.Element) -> None:
    """No script, no foreign object, no event handler, no link of any kind, no style sheet."""
    for element in root.iter():
        assert element.tag.startswith(SVG), element.tag  # nothing outside the SVG namespace
        assert element.tag not in (SVG + "script", SVG + "foreignObject", SVG + "a", SVG + "image",
                                   SVG + "style", SVG + "use")
        for name, value in element.attrib.items():
            assert not name.lower().startswith("on"), name
            assert "href" not in name.lower(), name
            assert "javascript:" not in value.lower() and "http" not in value.lower(), value
            # The only references are to the SVG's own markers.
            assert "url(" not in value or re.fullmatch(r"url\(#[\w-]+\)", value), value


def texts(root: ET.Element) -> list[str]:
    return ["".join(e.itertext()) for e in root.iter() if e.tag in (SVG + "text", SVG + "title")]


@pytest.mark.parametrize("svg", [lambda: relationship_map_svg(hostile_graph()),
                                 lambda: token_series_svg(hostile_series())])
def test_the_svg_parses_and_is_inert_with_hostile_names(svg):
    text = svg()
    root = parsed(text)
    assert_inert(root)
    assert root[0].tag == SVG + "title" and root[0].text  # accessible name first
    assert "<script" not in text and "<img" not in text and "\x00" not in text and "\u202e" not in text


def test_every_character_relationship_and_want_of_the_map_is_drawn_and_named():
    graph = hostile_graph()
    root = parsed(relationship_map_svg(graph))
    every = "\n".join(texts(root))
    for node in graph.nodes:
        assert plain(node.name) in every
    groups = {kind: [g for g in root.iter(SVG + "g") if g.get("class") == kind]
              for kind in ("character", "relationship", "want", "fraught")}
    assert len(groups["character"]) == len(graph.nodes)
    assert len(groups["relationship"]) == len(graph.relationships)
    assert len(groups["want"]) + len(groups["fraught"]) == len(graph.wants)
    assert len(groups["fraught"]) == sum(w.fraught for w in graph.wants) == 1
    for rel, group in zip(graph.relationships, groups["relationship"]):
        assert group.find(SVG + "title").text == plain(f"{rel.source} to {rel.target}: {rel.nature}")
    [fraught] = groups["fraught"]
    path = fraught.find(SVG + "path")
    assert path.get("stroke-dasharray") and path.get("stroke") == "#C0392B"
    assert any("fraught want" in t for t in texts(root))  # the legend


def test_a_long_name_is_cut_short_in_its_box_whole_in_its_title_and_every_box_is_inside_the_picture():
    long = "Captain Bartholomew Ezekiel Fitzwilliam-Hargreaves the Third of Lantern Harbor"
    graph = hostile_graph()
    graph = RelationshipGraph(graph.nodes + (CharacterNode(long, "Ana", PC),), graph.relationships, graph.wants)
    root = parsed(relationship_map_svg(graph))
    [box] = [g for g in root.iter(SVG + "g") if g.get("class") == "character" and long in g.find(SVG + "title").text]
    assert box.find(SVG + "text").text == "Captain Bartholomew Ezekiel Fit\u2026"
    _, _, width, height = map(float, root.get("viewBox").split())
    for rect in root.iter(SVG + "rect"):
        x, y, w, h = (float(rect.get(a)) for a in ("x", "y", "width", "height"))
        assert 0 <= x and x + w <= width and 0 <= y and y + h <= height


def test_the_sample_map_has_every_character_and_every_label(harbor_state):
    graph = relationship_graph(harbor_state)
    root = parsed(relationship_map_svg(graph))
    assert_inert(root)
    titles = [g.find(SVG + "title").text for g in root.iter(SVG + "g") if g.find(SVG + "title") is not None]
    for rel in graph.relationships:
        assert f"{rel.source} to {rel.target}: {rel.nature}" in titles
    for want in graph.wants:
        assert any(t.startswith(f"{want.source} wants from {want.target}: {want.want}") for t in titles)
    assert {t for t in texts(root)} >= {node.name for node in graph.nodes}


def test_the_token_chart_has_one_line_per_participant_and_a_point_per_scene(harbor_state, harbor_ledger):
    series = token_series(harbor_state, 1, harbor_ledger)
    root = parsed(token_series_svg(series))
    assert_inert(root)
    lines = root.findall(f".//{SVG}polyline")
    assert len(lines) == len(series.lines) == 7
    assert all(len(line.get("points").split()) == len(series.scenes) + 1 for line in lines)
    assert [line.get("stroke") for line in lines] == list(PALETTE[:7])
    every = texts(root)
    assert {"start", "sc 1", "sc 10", "drama tokens"} <= set(every)
    assert "Eli (Tobias Wren): 3 at the end" in every and "Maya: 2 at the end" in every


def test_the_same_data_gives_the_same_bytes(harbor_state, harbor_ledger):
    graph, series = relationship_graph(harbor_state), token_series(harbor_state, 3, harbor_ledger)
    for draw, data in ((relationship_map_svg, graph), (relationship_map_mermaid, graph),
                       (token_series_svg, series), (token_series_mermaid, series), (token_series_table, series)):
        assert draw(data) == draw(data)
    assert relationship_map_svg(relationship_graph(harbor_journal().state(CID))) == relationship_map_svg(graph)


# -- Mermaid ------------------------------------------------------------------------------------


def labels(mermaid: str) -> list[str]:
    """Every quoted label of a Mermaid flowchart."""
    return re.findall(r'"([^"\n]*)"', mermaid)


def decoded(label: str) -> str:
    return re.sub(r"#(\d+);", lambda m: chr(int(m.group(1))), label)


def test_mermaid_labels_are_quoted_encoded_and_decode_to_the_names():
    graph = hostile_graph()
    text = relationship_map_mermaid(graph)
    assert text.startswith("flowchart LR\n")
    found = labels(text)
    for label in found:
        assert not re.search(r"[<>\"`$&\r\n\t]", label), label
        assert not re.search(r"#(?!\d+;)", label), label  # every # starts an entity code
    decoded_labels = {decoded(label) for label in found}
    for node in graph.nodes:
        assert f"{plain(node.name)} ({plain(node.player or 'recurring')})" in decoded_labels
    # Every line is a statement of its own: a hostile name never adds a line or an edge.
    statements = text.splitlines()
    assert len(statements) == 3 + len(graph.nodes) + len(graph.relationships) + len(graph.wants) + 3
    assert sum(" ==>|" in s for s in statements) == 1 and sum(" -.->|" in s for s in statements) == 2


def test_plain_text_is_one_line_without_controls_but_keeps_joiners():
    assert plain(" two\nlines\u2028and\ta  tab ") == "two lines and a tab"
    assert plain("a\x00b\x1bc\u202eevil\u2066d\ufffe") == "abcevild"
    assert plain("\U0001F468\u200d\U0001F469 \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645") == \
        "\U0001F468\u200d\U0001F469 \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"


def test_an_id_prefix_is_a_safe_svg_id():
    relationship_map_svg(hostile_graph(), id_prefix="episode-2_map")
    with pytest.raises(ValueError):
        relationship_map_svg(hostile_graph(), id_prefix='x" onload="alert(1)')


def test_mermaid_text_keeps_plain_names_readable():
    assert mermaid_text("Iris Vane") == "Iris Vane"
    assert mermaid_text("Nell's \"Lantern\" <b>") == "Nell's #34;Lantern#34; #60;b#62;"
    assert mermaid_text("[Mags] {the} 100% | a;b *x* _y_") == "[Mags] {the} 100% | a;b *x* _y_"
    assert mermaid_text("#quot; `code` $$x$$ &amp;") == "#35;quot; #96;code#96; #36;#36;x#36;#36; #38;amp;"
    assert mermaid_text("a\nb") == "a b"


def test_the_sample_map_in_mermaid(harbor_state):
    text = relationship_map_mermaid(relationship_graph(harbor_state))
    assert '    n1["Iris Vane (Ana)"]' in text
    assert '    n1 -->|"ex-lover"| n0' in text
    assert '    n1 ==>|"fraught: an apology for the night the Wren ran aground"| n0' in text
    assert "    class n6,n7 recurring" in text
    assert text.count("==>") == 12 and "linkStyle 16,17,18,19,20,21,22,23,24,25,26,27 stroke:#C0392B" in text


def test_the_token_chart_in_mermaid_is_an_xy_chart_without_user_text():
    series = hostile_series()
    text = token_series_mermaid(series)
    assert "xychart-beta" in text.splitlines()
    assert 'x-axis ["start", "sc 4", "sc 5", "sc 7"]' in text
    assert [line.strip() for line in text.splitlines() if line.strip().startswith("line")] == [
        f"line [{', '.join(map(str, line.balances))}]" for line in series.lines]
    assert not any(plain(name)[:4] in text for name in HOSTILE)
    assert "y-axis \"drama tokens\" 0 --> 3" in text


def test_the_token_table_escapes_names_and_names_each_lines_colour():
    series = hostile_series()
    table = token_series_table(series).splitlines()
    assert table[0] == "| line | participant | start | sc 4 | sc 5 | sc 7 |"
    assert all(row.count("|") == 7 for row in table)  # no name adds a cell
    assert all(not re.search(r"[<>*_`\[\]$\n]", row) for row in table)
    assert table[2].startswith("| blue | Bob &#34;the Knife&#34;")
