"""`vault daily`, the periodic-note commands, `vault periodic` and `vault config`
as a person runs them: real subprocesses, real files, --now for the clock."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from vault.layout import Vault

MONDAY, TUESDAY = "2027-01-25T09:30:00Z", "2027-01-26T14:05:00Z"


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hooks.cli", *args], capture_output=True,
                          text=True, env={**os.environ, **(env or {})}, timeout=120)  # fmt: skip


def data(*args: str, env: dict[str, str] | None = None) -> Any:
    result = run(*args, "--json", env=env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_daily_init_append_load_and_today(vault: Vault) -> None:
    assert data("daily", "--init", "--now", MONDAY)["created"] is True
    assert data("daily", "--init", "--now", MONDAY)["created"] is False
    run("daily", "--append", "fixed the flaky date test", "--now", MONDAY)
    appended = run(
        "daily", "--append", "token=sk-live-abcdefghijklmnop1234 rotated", "--now", TUESDAY
    )
    assert appended.returncode == 0, appended.stderr
    loaded = data("daily", "--load", "--now", TUESDAY)["days"]
    assert [day["date"] for day in loaded] == ["2027-01-25", "2027-01-26"]
    assert "- 09:30 fixed the flaky date test" in loaded[0]["text"]
    assert "sk-live-abcdefghijklmnop1234" not in loaded[1]["text"]  # redacted on the way in
    today = run("daily", "--today", "--now", TUESDAY)
    assert today.stdout.startswith("# 2027-01-26\n")
    assert "flaky" not in today.stdout
    assert run("daily", "--now", "2027-01-27T08:00:00Z").stdout == "No log yet for 2027-01-27.\n"


def test_weekly_show_append_list_and_synthesize(vault: Vault) -> None:
    run("daily", "--append", "we decided to pin ruff in CI", "--now", MONDAY)
    run("daily", "--append", "TODO: fix the docs build", "--now", TUESDAY)
    shown = data("weekly", "--now", TUESDAY)
    assert (shown["period"], shown["created"]) == ("2027-W04", True)
    assert shown["text"].startswith("# 2027-W04 (week of 2027-01-25 to 2027-01-31)")
    run("weekly", "--append", "shipped the auth flow", "--now", TUESDAY)
    report = data("weekly", "--synthesize", "--now", "2027-01-31T20:00:00Z")
    assert report["sources"] == ["2027-01-25", "2027-01-26"]
    assert (report["decision_lines"], report["open_threads"]) == (1, 1)
    text = Path(report["path"]).read_text()
    assert "- 2027-01-26 14:05 shipped the auth flow" in text.split("<!-- vault:source")[0]
    assert "we decided to pin ruff in CI (2027-01-25)" in text
    listed = data("weekly", "--list")
    assert [n["period"] for n in listed] == ["2027-W04"]
    later = run("weekly", "--period", "2027-W04", "--now", "2027-06-01T00:00:00Z")
    assert "shipped the auth flow" in later.stdout


def test_periodic_load_and_all_show_the_recent_notes_without_their_source(vault: Vault) -> None:
    run("daily", "--append", "we decided to pin ruff in CI", "--now", MONDAY)
    data("weekly", "--synthesize", "--now", TUESDAY)
    data("monthly", "--synthesize", "--now", TUESDAY)
    loaded = data("periodic", "--load", "--now", "2027-02-01T09:00:00Z")  # next Monday
    assert loaded["notes"] == ["2027-W04", "2027-01"]
    assert "pin ruff" in loaded["text"]
    assert "<!--" not in loaded["text"]
    every = data("periodic", "--all", "--now", TUESDAY)
    assert [n["level"] for n in every] == ["weekly", "monthly"]
    assert run("periodic", "--load", "--max-chars", "120", "--now", TUESDAY).stdout.count("\n") < 8


def test_bad_period_names_are_usage_errors(vault: Vault) -> None:
    result = run("monthly", "--period", "2027-13")
    assert result.returncode == 2
    assert "'2027-13' is not a monthly period" in result.stderr


@pytest.mark.parametrize(
    ("variable", "raw", "key", "in_file", "value"),
    [
        ("VAULT_COMPACTION_WATCH", "yes", "compaction_watch", "false", True),  # bool
        ("VAULT_LINKS_MAX", "3", "links_max", "7", 3),  # int
        ("VAULT_CUE_BAR", "0.2", "cue_bar", "0.5", 0.2),  # float
        ("VAULT_LLM_MODEL", "sonnet", "llm_model", '"opus"', "sonnet"),  # str
    ],
)
def test_every_setting_type_is_overridden_by_its_environment_variable(
    vault: Vault, variable: str, raw: str, key: str, in_file: str, value: object
) -> None:
    vault.config_path.write_text(f"[any]\n{key} = {in_file}\n")
    from_file = {row["key"]: row for row in data("config")}
    assert from_file[key]["origin"] == str(vault.config_path)
    assert from_file[key]["value"] != value
    rows = {row["key"]: row for row in data("config", env={variable: raw})}
    assert rows[key]["value"] == value
    assert rows[key]["origin"] == f"env {variable}"
    assert rows["retrieval_floor"]["origin"] == "default"


def test_a_bad_override_names_the_variable(vault: Vault) -> None:
    result = run("config", env={"VAULT_LINKS_MAX": "many"})
    assert result.returncode == 3
    assert "VAULT_LINKS_MAX: links_max must be a whole number 0 to 100, got 'many'" in result.stderr
