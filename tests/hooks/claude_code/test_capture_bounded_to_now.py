"""A statement that says it holds only for now, captured beside a lasting one,
on the path a session takes (`vault capture` and `vault prune` as processes,
real files, the real model): the passing one is kept as a `status` that fades
in days, the lasting one as what it is; once archived, a specific cue never
brings the status back, while the faded fact beside it still comes back."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hooks.ops.table import dispatch
from tests.conftest import ServiceFactory
from vault.layout import Vault
from vault.store import MemoryStore

pytestmark = pytest.mark.model
SAID_AT = "2026-03-02T10:00:00Z"
PASSING = (
    "Heads up, the payments sandbox is offline for the rest of the day, "
    "so the checkout tests point at the local mock."
)
LASTING = "The payments sandbox URL lives in PAYMENTS_URL in .env.test."
# A cue both clear the cold bar for, the status most of all (0.55 and 0.51).
CUE = "is the payments sandbox offline?"
# Other memories, so the keywords of a cue are as selective as in a lived-in vault.
OTHERS = [
    f"The {name} worker retries failed jobs three times before giving up."
    for name in ("mailer", "thumbnail", "webhook", "ledger", "import", "export", "audit", "cache")
]
# Words only the stored text of each says.
PASSING_WORDS, LASTING_WORDS = "offline for the rest of the day", "lives in PAYMENTS_URL"


def vault_cli(vault: Vault, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hooks.cli", "--vault", str(vault.root), *args],
                          capture_output=True, text=True, env={**os.environ, **env},
                          timeout=300)  # fmt: skip


def transcript(folder: Path, turns: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "s1.jsonl"
    with path.open("w") as handle:
        for number, text in enumerate(turns):
            line = {"type": "user", "uuid": f"s1-{number}", "sessionId": "s1", "cwd": "/tmp",
                    "timestamp": SAID_AT, "message": {"role": "user", "content": text}}  # fmt: skip
            handle.write(json.dumps(line) + "\n")
    return path


def by_words(vault: Vault) -> dict[str, dict[str, object]]:
    """The memory (active or archived) saying each of PASSING_WORDS and
    LASTING_WORDS: its id, kind, stability and whether it is archived."""
    store = MemoryStore(vault)
    found = {}
    for path in vault.memory_files(archived=None):
        record = store.read_path(path)
        for words in (PASSING_WORDS, LASTING_WORDS):
            if words in record.body:
                assert words not in found, f"captured twice: {words}"
                found[words] = {"id": record.id, "kind": record.kind,
                                "stability": record.stability,
                                "archived": record.archived}  # fmt: skip
    return found


def test_a_status_fades_in_days_and_never_comes_back_the_fact_beside_it_does(
    vault: Vault, tmp_path: Path, make_service: ServiceFactory
) -> None:
    env = {"CLAUDE_CONFIG_DIR": str(tmp_path / "claude"), "VAULT_NOW": SAID_AT}
    filler = make_service()
    for text in OTHERS:
        filler.jot(text)
    path = transcript(tmp_path / "claude" / "projects" / "-tmp", [PASSING, LASTING])
    run = vault_cli(vault, "capture", "--transcript", str(path), env=env)
    assert run.returncode == 0, run.stderr
    captured = by_words(vault)
    passing, lasting = captured[PASSING_WORDS], captured[LASTING_WORDS]
    assert (passing["kind"], passing["stability"]) == ("status", 2.0)
    assert (lasting["kind"], lasting["stability"]) == ("fact", 7.0)

    # Ten days later: exp(-10/2) is under the archive floor, exp(-10/7) is not.
    day10 = {**env, "VAULT_NOW": "2026-03-12T10:00:00Z"}
    assert vault_cli(vault, "prune", env=day10).returncode == 0
    after = by_words(vault)
    assert after[PASSING_WORDS]["archived"] is True
    assert after[LASTING_WORDS]["archived"] is False

    # Two months later both are archived; the cue brings back the fact only
    # (though it is closer to the status).
    day60 = {**env, "VAULT_NOW": "2026-05-01T10:00:00Z"}
    assert vault_cli(vault, "prune", env=day60).returncode == 0
    assert all(memory["archived"] for memory in by_words(vault).values())
    event = {"prompt": CUE, "session_id": "s2", "cwd": ""}
    reply = dispatch(make_service(), "prompt_event", {"event": event, "now": day60["VAULT_NOW"]})
    output = str(reply["output"])
    assert str(lasting["id"]) in output
    assert str(passing["id"]) not in output
