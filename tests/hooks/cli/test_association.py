"""`vault links`, `vault graph`, `vault topics` as a person runs them, and the
vault as a third-party Obsidian parser (obsidiantools) sees it. The memories are
jotted by the CLI in this process (`jot_here`); the commands under test run as processes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.hooks.cli.test_cli import jot_here, run

pytestmark = pytest.mark.model

MEMORIES = (
    ("testing", "Use pytest fixtures instead of unittest setUp/tearDown in this codebase."),
    ("", "Shared pytest fixtures live in tests/conftest.py so every test module can use them."),
    ("", "A session-scoped pytest fixture loads the embedding model once for the whole suite."),
    ("database", "Production Postgres ran out of connections; PgBouncer pools them now."),
    ("", "Use CSS grid for the dashboard layout and flexbox only inside cards."),
)


@pytest.fixture
def jotted(tmp_path: Path) -> list[str]:
    assert run("init").returncode == 0
    return [jot_here(text, *(["--topic", topic] if topic else [])) for topic, text in MEMORIES]


def test_links_graph_and_topics_from_the_command_line(tmp_path: Path, jotted: list[str]) -> None:
    first, second, third, postgres, css = jotted
    swept = run("links", "--sweep", "--json")  # also embeds, files and links the quick jots
    assert swept.returncode == 0, swept.stderr
    assert json.loads(swept.stdout)["edges"] == 3

    shown = json.loads(run("links", first, "--json").stdout)
    assert {item["id"] for item in shown["links"]} == {second, third}
    assert {item["id"] for item in shown["backlinks"]} == {second, third}
    assert json.loads(run("links", css, "--json").stdout) == {
        "id": css, "links": [], "backlinks": []
    }  # fmt: skip

    graph = json.loads(run("graph", "--format", "json").stdout)
    assert {n["id"] for n in graph["nodes"]} == set(jotted)
    pairs = {frozenset((e["source"], e["target"])) for e in graph["edges"]}
    assert pairs == {frozenset(p) for p in ((first, second), (first, third), (second, third))}
    assert all(e["mutual"] for e in graph["edges"])
    dot = run("graph", "--format", "dot", "-o", str(tmp_path / "g.dot"))
    assert dot.returncode == 0
    text = (tmp_path / "g.dot").read_text()
    assert text.startswith("digraph vault {")
    assert text.count("->") == 3

    topics = json.loads(run("topics", "--json").stdout)
    by_topic = {t["topic"]: (t["labelled"], t["auto"]) for t in topics}
    assert by_topic["testing"] == (1, 2)  # the two fixture memories were filed automatically
    assert by_topic["database"] == (1, 0)

    assert run("links").returncode != 0
    missing = run("links", "no-such-memory-0000")
    assert missing.returncode != 0
    assert len(missing.stderr.strip().splitlines()) == 1


def test_a_third_party_obsidian_parser_sees_the_same_vault(
    tmp_path: Path, jotted: list[str]
) -> None:
    from obsidiantools.api import Vault as ObsidianVault
    from obsidiantools.md_utils import _get_all_wikilinks_from_source_text

    run("links", "--sweep")
    run("forget", jotted[2])  # archived memories stay notes whose links resolve
    graph = json.loads(run("graph", "--format", "json").stdout)
    ours = {(e["source"], e["target"]) for e in graph["edges"]}
    ours |= {(e["target"], e["source"]) for e in graph["edges"] if e["mutual"]}

    root = tmp_path / "vault"
    parsed = ObsidianVault(root).connect().gather()
    files = sorted(p for p in root.rglob("*.md") if ".index" not in p.parts)
    assert len(parsed.md_file_index) == len(files)  # file stems are unique
    theirs = set()
    for note, properties in parsed.front_matter_index.items():
        if note not in jotted:
            continue
        assert properties["id"] == note  # properties parse, and the id is the stem
        for value in properties.get("links", []):
            for target in _get_all_wikilinks_from_source_text(value):
                assert target in parsed.md_file_index, f"{note} links to missing {target}"
                theirs.add((note, target))
    assert theirs == ours
    assert len(theirs) == 6
    assert set(jotted) <= set(parsed.md_file_index)
    assert "archive" in str(parsed.md_file_index[jotted[2]])
