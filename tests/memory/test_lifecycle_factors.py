"""Seed 001's factors as pure functions and their bookkeeping: evergreen rules,
salience from path patterns, the appearance log (window, cap) and the cache of
periodic-note links (refreshed when a note changes)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest

from memory.config import MemoryConfig
from memory.lifecycle_factors import (
    RecordFields,
    appearance_factor,
    is_evergreen,
    lifecycle_strength,
    path_salience,
    periodic_factor,
)
from tests.conftest import T0
from vault import appearances
from vault.appearances import AppearanceLog
from vault.errors import VaultError
from vault.layout import Vault
from vault.periodic_links import RESCAN_SECONDS, PeriodicLinks

CONFIG = MemoryConfig.default()


@pytest.mark.parametrize(
    ("appearances_seen", "factor"), [(0, 1.0), (1, 1.05), (3, 1.15), (6, 1.3), (40, 1.3)]
)
def test_appearance_factor_is_five_percent_each_capped_at_thirty(
    appearances_seen: int, factor: float
) -> None:
    assert appearance_factor(appearances_seen, CONFIG) == pytest.approx(factor)


@pytest.mark.parametrize(("levels", "factor"), [(0, 1.0), (1, 1.15), (3, 1.45), (4, 1.5)])
def test_periodic_factor_is_fifteen_percent_a_level_capped_at_fifty(
    levels: int, factor: float
) -> None:
    assert periodic_factor(levels, CONFIG) == pytest.approx(factor)


def test_evergreen_by_flag_kind_or_path() -> None:
    config = replace(CONFIG, evergreen_kinds=("decision",))
    assert is_evergreen("memories/a.md", "fact", True, config)
    assert is_evergreen("memories/a.md", "decision", False, config)
    assert is_evergreen("memories/decisions/2026/a.md", "fact", False, config)  # the default glob
    assert not is_evergreen("memories/a.md", "fact", False, config)
    # by default what capture judges durable never fades; a plain fact does
    assert is_evergreen("memories/a.md", "decision", False, CONFIG)
    assert is_evergreen("memories/a.md", "prohibition", False, CONFIG)
    assert not is_evergreen("memories/a.md", "fact", False, CONFIG)


def test_evergreen_strength_never_decays() -> None:
    fields = RecordFields("memories/decisions/a.md", "fact", "episodic", None, 1.0, False)
    years_later = T0 + timedelta(days=3650)
    assert lifecycle_strength(fields, years_later, CONFIG, T0) == 1.0
    plain = replace(fields, path="memories/a.md")
    assert lifecycle_strength(plain, years_later, CONFIG, T0) < CONFIG.archive_floor


def test_salience_from_paths_multiplies_the_frontmatter_value() -> None:
    config = replace(CONFIG, salience_paths=("memories/core/**=3", "memories/core/deep/**=5"))
    assert path_salience("memories/core/a.md", 2.0, config) == 6.0
    assert path_salience("memories/core/deep/a.md", 1.0, config) == 5.0  # the largest factor
    assert path_salience("memories/other.md", 2.0, config) == 2.0
    fields = RecordFields("memories/core/a.md", "fact", "episodic", None, 1.0, False)
    at_day_21 = T0 + timedelta(days=21)  # ages like day 7: exp(-1)
    assert lifecycle_strength(fields, at_day_21, config, T0) == pytest.approx(0.3679, abs=1e-4)


@pytest.mark.parametrize("entry", ["memories/**", "memories/**=0", "=2", "memories/**=many"])
def test_a_bad_salience_pattern_names_the_setting(entry: str) -> None:
    config = replace(CONFIG, salience_paths=(entry,))
    with pytest.raises(VaultError, match="salience_paths"):
        path_salience("memories/a.md", 1.0, config)


def test_appearances_count_within_the_window_only(tmp_path: Path) -> None:
    log = AppearanceLog(tmp_path)
    for day in (0, 2, 6):
        log.record(["a", "a", "b"], T0 + timedelta(days=day), 7.0)  # once per call
    assert log.count("a", T0 + timedelta(days=6), 7.0) == 3
    assert log.count("a", T0 + timedelta(days=8), 7.0) == 2  # day 0 left the window
    assert log.count("a", T0 + timedelta(days=1), 7.0) == 1  # later ones do not count yet
    assert log.count("c", T0, 7.0) == 0
    another = AppearanceLog(tmp_path)  # another process: lookups see the last refresh
    assert another.summary("b") == (0, None)
    another.refresh()
    assert another.summary("b") == (3, (T0 + timedelta(days=6)).timestamp())


def test_the_log_is_compacted_to_the_window_past_its_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(appearances, "MAX_LINES", 10)
    log = AppearanceLog(tmp_path)
    for day in range(12):
        log.record(["a"], T0 + timedelta(days=day), 3.0)
    lines = log.path.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 10
    assert log.count("a", T0 + timedelta(days=11), 3.0) == 3  # the window survived
    log.path.write_text("garbage line\n" + "\n".join(lines) + "\n", encoding="utf-8")
    log.refresh()
    assert log.count("a", T0 + timedelta(days=11), 3.0) == 3  # a torn line is skipped


class Ticker:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_periodic_links_follow_note_changes(tmp_path: Path) -> None:
    vault = Vault(tmp_path)
    weekly, monthly = vault.note_dir("weekly"), vault.note_dir("monthly")
    weekly.mkdir(parents=True)
    monthly.mkdir(parents=True)
    ticker = Ticker()
    links = PeriodicLinks(vault, ticker)
    links.refresh()
    assert links.levels("m1") == frozenset()
    (weekly / "2026-W01.md").write_text("- [[m1]] and [[notes/m2|alias]]\n", encoding="utf-8")
    (monthly / "2026-01.md").write_text("plain text m1, no link\n- [[m1#part]]\n", "utf-8")
    links.refresh()
    assert links.levels("m1") == {"weekly", "monthly"}  # new files change the folders
    assert links.levels("m2") == {"weekly"}
    note = weekly / "2026-W01.md"
    stat = note.stat()
    with note.open("w", encoding="utf-8") as handle:  # an editor writing in place
        handle.write("- nothing linked now, padded to a new size\n")
    assert stat.st_size != note.stat().st_size
    links.refresh()
    assert links.levels("m2") == {"weekly"}  # not yet: the folders did not change
    ticker.now += RESCAN_SECONDS  # in-place edits are seen at the next rescan
    links.refresh()
    assert links.levels("m1") == {"monthly"}
    assert links.levels("m2") == frozenset()
