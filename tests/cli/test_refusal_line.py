"""A refusal on stderr is one line of at most 80 columns in the common cases (issue 10's brief: "Human
output speaks the book's words in short sentences that fit 80 columns"; "Errors: one line on
stderr"): the book's section whole when it fits, else the rule's number or the sub-heading; the
message (and any name in it) is never cut; ``--json`` and ``--verbose`` quote the rule whole."""

from __future__ import annotations

from yarnlog.cli.output import WIDTH, citations, error_line, refusal_line
from yarnlog.core.referee import Rule, RuleViolation

# DramaSystem SRD, DS25 (lines 335-339), as the shared core cites it for a DramaSystem campaign.
SUPPORT = Rule("DramaSystem SRD (DS25, lines 335-339)", "Supporting or Blocking a Force",
               "Other players may support or block a force by spending drama tokens.")
# The same words quoted under Yarn's book, which numbers no rule.
YARN_SUPPORT = Rule("Yarn 0.1", "Dramatic Scenes › Supporting or Blocking a Force", SUPPORT.text)
PLAYER_VS_PLAYER = Rule("DramaSystem SRD", "Advanced Procedural System: Player vs. Player",
                        "The GM may then require one contestant to redraw, once. (line 953)")


def test_the_section_is_named_whole_when_the_line_fits():
    line = refusal_line("Cy must pay 1 drama token but holds 0", SUPPORT)
    assert line == "Refused. Cy must pay 1 drama token but holds 0 (Supporting or Blocking a Force)."
    assert len(line) == WIDTH


def test_a_line_too_wide_cites_the_rules_number_or_the_sub_heading():
    assert citations(SUPPORT) == ["Supporting or Blocking a Force", "DS25"]
    assert refusal_line("Annabel must pay 2 drama tokens but holds 0", SUPPORT) == (
        "Refused. Annabel must pay 2 drama tokens but holds 0 (DS25).")
    assert citations(PLAYER_VS_PLAYER) == ["Advanced Procedural System: Player vs. Player", "Player vs. Player"]
    line = refusal_line("Cy's character is not present in the scene: only present players may interfere",
                        Rule("An Unindexed Book", PLAYER_VS_PLAYER.chapter, PLAYER_VS_PLAYER.text))
    assert line == ("Refused. Cy's character is not present in the scene: only present players may interfere "
                    "(Player vs. Player).")  # too wide still: the shortest citation


def test_a_book_without_rule_numbers_keeps_its_heading_and_the_message_is_never_cut():
    name = "Annabel-Marguerite of the Lantern Harbour Watch"
    line = refusal_line(f"{name} must pay 2 drama tokens but holds 0", YARN_SUPPORT)
    assert line == f"Refused. {name} must pay 2 drama tokens but holds 0 (Supporting or Blocking a Force)."
    assert len(line) > WIDTH  # the long name alone makes it wider; nothing of it is cut


def test_json_and_verbose_quote_the_rule_whole():
    refused = RuleViolation(SUPPORT, "Annabel must pay 2 drama tokens but holds 0")
    assert error_line(refused) == "Refused. Annabel must pay 2 drama tokens but holds 0 (DS25)."
    whole = error_line(refused, full=True)
    assert whole.startswith("error: Annabel must pay 2 drama tokens but holds 0")
    assert SUPPORT.cite() in whole and "\n" not in whole


def test_a_line_too_wide_for_any_heading_names_the_rule_by_its_book_and_line():
    """Yarn numbers no rule: its rules package says where each section starts in the book
    (``Resulting Personal Consequences`` is line 965 of ``shared/seeds/000_548678c832322f1b.txt``)."""
    import yarnlog.rulesets.dramasystem.rules  # noqa: F401  (each registers its book's index)
    import yarnlog.rulesets.yarn.rules  # noqa: F401

    consequences = Rule("Yarn 0.1", "Personal Consequences › Resulting Personal Consequences", "A break ...")
    assert consequences.where == "Yarn 965"
    message = "Iris owes no roll for a good break in scene 12 (none, or done)"
    assert len(f"Refused. {message} ({consequences.section}).") > WIDTH
    assert refusal_line(message, consequences) == f"Refused. {message} (Yarn 965)."
    # The number where the citation gives one, else the line it gives, else the book's index.
    assert SUPPORT.where == "DS25"
    assert Rule("DramaSystem SRD (lines 639-641)", "Resolving Consequences", "...").where == "SRD 639"
    assert Rule("DramaSystem SRD", "Procedural Resolution", "...").where == "SRD 421"
    assert Rule("An Unindexed Book", "Anything", "...").where is None
    assert Rule("Yarn 0.1", "A Chapter Yarn Does Not Have", "...").where is None
