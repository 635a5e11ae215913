"""No secret reaches the vault, whichever way it comes in: a transcript captured
by `vault capture --transcript` (a real process), `vault jot`, and the MCP
tools `daily_append` and `remember` (39 of the formats) driven by the SDK's
stdio client (which starts a real daemon). Afterwards no secret, nor its lowercased or slugged
form, is in any file under the vault: memories, daily logs, .state, the
catalog (meta.sqlite and its -wal), the vectors, file names, ids and links.

The corpus: the 84 formats of the redaction corpus (the issue's seven misses
among them) and the 20 formats this test suite checked before.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from mcp import Client, StdioServerParameters

from hooks.cli.main import main
from hooks.client.control import stop
from tests.memory.redact_corpus import POSITIVE, Fake
from vault.layout import Vault

pytestmark = [pytest.mark.model, pytest.mark.anyio]
EARLIER = [  # (sentence, secret): the formats test_end_to_end checked before
    ("We decided the deploy key is {} for now.", "AKIAIOSFODNN7EXAMPLE"),
    ("We decided to use the token {} for the release bot.",
     "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"),
    ("Let's go with {} as the GitHub token.",
     "github_pat_" + "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz"),
    ("We decided GitLab uses {} going forward.", "glpat-" + "abcdefghij0123456789"),
    ("Always call Claude with {} in staging.", "sk-ant-" + "api03-abcdefghijklmnopqrstuvwxyz0123"),
    ("We decided Stripe runs on {} in production.", "sk_live_" + "abcdefghijklmnop1234"),
    ("Always post alerts with Slack token {}.", "xoxb-" + "123456789012-abcdefghijkl"),
    ("We decided maps use {} for geocoding.", "AIza" + "SyA1234567890abcdefghijklmnopqrstuv"),
    ("Always download models with {}.", "hf_" + "abcdefghijklmnopqrstuvwxyz0123456"),
    ("We decided npm publishing uses {}.", "npm_" + "abcdefghijklmnopqrstuvwxyz0123456789"),
    ("We decided the database url is postgres://app:{}@db.internal:5432/app.",
     "hunter2-db-password"),
    ("We decided DB_PASSWORD={} for the replica.", "Tr0ub4dor&3-horse"),
    ('We decided client_secret: "{}" in the OAuth config.', "s3cr3t-client-value"),
    ("We decided to keep -----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY----- in the vault.",
     "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC"),
    ("Always remember the admin password is {}.", "correct-horse-battery-staple"),
    ("We decided DigitalOcean uses {} for droplets.", "dop_v1_" + "a" * 64),
    ("Remember <private>my home address is {}</private> we decided on tabs.", "12 Elm St"),
]  # fmt: skip


def corpus() -> list[tuple[str, str, list[str]]]:
    """(name, sentence, secrets) for every format."""
    cases = []
    for case in POSITIVE:
        text, secrets = case.make(Fake(f"end-to-end/{case.name}"))
        cases.append((case.name, text, secrets))
    for number, (template, secret) in enumerate(EARLIER):
        cases.append((f"earlier-{number}", template.format(secret), [secret]))
    return cases


CASES = corpus()
# Each MCP remember embeds and links (about a second on 2 busy cores): the seven
# formats of the issue and every third other one go this way, 41 formats.
REMEMBERED = CASES[:8] + CASES[8::3]


def turn(number: int, name: str, sentence: str) -> str:
    """A turn the extractor keeps whole: a durable first sentence, then the secret's."""
    return f"We decided to file the {name.replace('-', ' ')} example as note {number}. {sentence}"


def forms(secret: str) -> list[str]:
    """The secret as typed, lowercased and slugged, and its long alphanumeric runs."""
    runs = [run.lower() for run in re.findall(r"[A-Za-z0-9]{12,}", secret)]
    slug = "-".join(re.findall(r"[a-z0-9]+", secret.lower()))
    return sorted({secret, secret.lower(), slug, *runs} - {""})


def leaks(vault: Vault, secrets: list[str]) -> list[tuple[str, str]]:
    found = []
    files = [p for p in vault.root.rglob("*") if p.is_file()]
    assert {"meta.sqlite", "cursors.json"} <= {p.name for p in files}
    blobs = {vault.relative(p): p.read_bytes() for p in files}
    for secret in secrets:
        if len(secret) < 8:  # a PIN: as a word in text files only (a hash may hold its digits)
            word = re.compile(rf"(?<![0-9A-Za-z]){re.escape(secret)}(?![0-9A-Za-z])".encode())
            texts = {n: b for n, b in blobs.items() if n.endswith((".md", ".json", ".jsonl"))}
            found += [(secret, name) for name, blob in texts.items() if word.search(blob)]
            continue
        for form in forms(secret):
            encoded = form.encode()
            found += [
                (form, name)
                for name, blob in blobs.items()
                if encoded in blob or encoded in blob.lower() or form in name.lower()
            ]
    return found


def write_transcript(path: Path) -> Path:
    path.parent.mkdir(parents=True)
    with path.open("w") as handle:
        for number, (name, sentence, _) in enumerate(CASES):
            message = {"role": "user", "content": turn(number, name, sentence)}
            line = {"type": "user", "uuid": f"u{number}", "sessionId": "secrets",
                    "cwd": str(path.parent), "timestamp": "2026-01-01T09:00:00Z",
                    "message": message}  # fmt: skip
            handle.write(json.dumps(line) + "\n")
    return path


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def claude(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    return tmp_path / "claude"


@pytest.fixture(autouse=True)
def _stop_spawned_daemon(vault: Vault) -> Iterator[None]:
    yield
    stop(vault)


def mcp_params(vault: Vault, project: Path) -> StdioServerParameters:
    env = {"VAULT_HOME": str(vault.root), "PATH": os.environ["PATH"], "HF_HUB_OFFLINE": "1",
           "VAULT_MODEL_CACHE": os.environ["VAULT_MODEL_CACHE"],
           "CLAUDE_PROJECT_DIR": str(project), "VAULT_DAEMON_IDLE_SECONDS": "120"}  # fmt: skip
    return StdioServerParameters(command=sys.executable, args=["-m", "hooks.cli", "mcp"], env=env)


def stored_notes(vault: Vault) -> set[int]:
    """The note numbers whose turn reached a memory file (redacted, but there)."""
    found = set()
    for path in vault.memories_dir.glob("*.md"):
        found |= {int(n) for n in re.findall(r"as note (\d+)\.", path.read_text())}
    return found


async def test_no_secret_reaches_the_vault_by_any_way_in(
    vault: Vault, claude: Path, tmp_path: Path
) -> None:
    assert len(CASES) >= 31
    transcript = write_transcript(claude / "projects" / "-home-dev-api" / "secrets.jsonl")
    captured = subprocess.run(
        [sys.executable, "-m", "hooks.cli", "capture", "--transcript", str(transcript)],
        capture_output=True, text=True, env=dict(os.environ), timeout=900,
    )  # fmt: skip
    assert captured.returncode == 0, captured.stderr
    assert len(stored_notes(vault)) >= 0.9 * len(CASES)  # the texts did arrive, redacted

    runner = CliRunner()
    for number, (name, sentence, _) in enumerate(CASES):
        jotted = runner.invoke(main, ["jot", "--", f"CLI jot {number}: {sentence}"])
        assert jotted.exit_code == 0, (name, jotted.output)

    async with Client(mcp_params(vault, tmp_path)) as client:
        for name, sentence, _ in CASES:
            logged = await client.call_tool("daily_append", {"text": sentence})
            assert not logged.is_error, (name, logged.content)
        for number, (name, sentence, _) in enumerate(REMEMBERED):
            remembered = await client.call_tool("remember", {"text": f"MCP {number}: {sentence}",
                                                             "tags": [sentence]})  # fmt: skip
            assert not remembered.is_error, (name, remembered.content)
        status = (await client.call_tool("status", {})).structured_content
    assert status is not None
    assert status["active"]["episodic"] >= 0.9 * (2 * len(CASES) + len(REMEMBERED))
    stop(vault)
    assert leaks(vault, [secret for _, _, secrets in CASES for secret in secrets]) == []
