"""What may enter the vault through jot and ingest: no NUL or control-only text,
no secret in a tag, topic, id, file name or source path, a re-ingest that keeps
the person's fields, and only files the caller allowed (never special files)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memory.errors import RecallError
from memory.service import MemoryService
from vault.errors import BrokenFileError
from vault.source_files import RefusedSourceError

pytestmark = pytest.mark.model
TOKEN = "ghp_" + "Zq0CVB8iY4qwLm3NbT7rXe2WsK9pUa1HdJ6f"
CARD = "4111 1111 1111 1111"


@pytest.mark.parametrize(
    "text", ["\x00", "prefer fixtures\x00 over setUp", "\x01\x02\x1b", " \x7f "]
)
def test_nul_and_control_only_text_is_refused(service: MemoryService, text: str) -> None:
    with pytest.raises(RecallError, match="NUL|control characters"):
        service.jot(text)
    assert list(service.vault.memory_files()) == []


def test_tags_topic_and_project_are_redacted(service: MemoryService) -> None:
    record = service.jot("the release bot posts to the deploy channel", topic=f"bot {TOKEN}",
                         tags=[TOKEN, "ci"], project=f"card {CARD}")  # fmt: skip
    text = record.path.read_text()
    for secret in (TOKEN, CARD, TOKEN.lower()):
        assert secret not in text
    assert "ci" in record.tags


def test_an_ingested_file_named_after_a_secret_gets_a_redacted_id(
    service: MemoryService, tmp_path: Path
) -> None:
    folder = tmp_path / f"keys-{TOKEN}"
    folder.mkdir()
    note = folder / f"{TOKEN}.md"
    note.write_text("How we rotate the release bot's credentials every quarter.\n")
    record = service.ingest(note)
    assert TOKEN.lower() not in record.id
    assert TOKEN not in record.id
    assert record.id.startswith("redacted-")
    assert TOKEN not in record.path.read_text()
    assert TOKEN not in record.source_path


def test_reingesting_keeps_the_topic_tags_and_project(
    service: MemoryService, tmp_path: Path
) -> None:
    note = tmp_path / "adr-0007.md"
    note.write_text("We chose PostgreSQL 16 for billing.\n")
    first = service.ingest(note, topic="architecture", tags=["db"], project="github.com/acme/x")
    note.write_text("We chose PostgreSQL 17 for billing.\n")
    again = service.ingest(note)
    assert (again.topic, again.tags, again.project) == (
        "architecture",
        ("db",),
        "github.com/acme/x",
    )
    assert "17" in again.body
    assert again.id == first.id
    changed = service.ingest(note, topic="databases")
    assert (changed.topic, changed.tags) == ("databases", ("db",))


def test_ingest_reads_only_allowed_folders_and_never_special_files(
    service: MemoryService, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "ok.md").write_text("The project deploys with blue/green releases.\n")
    (project / "passwd.md").symlink_to("/etc/passwd")
    assert service.ingest(project / "ok.md", allowed=[project]).tier == "curated"
    for outside in (Path("/etc/passwd"), project / "passwd.md", project / ".." / "x.md"):
        with pytest.raises(RefusedSourceError, match="outside the folders"):
            service.ingest(outside, allowed=[project])
    for special in ("/proc/self/environ", "/dev/zero"):
        with pytest.raises(RefusedSourceError, match="special file"):
            service.ingest(Path(special))
    (project / "big.md").write_bytes(b"word " * 250_000)
    with pytest.raises(RefusedSourceError, match="larger than"):
        service.ingest(project / "big.md")
    assert [p.name for p in service.vault.memory_files()] == [
        f"{service.ingest(project / 'ok.md').id}.md"
    ]


def test_a_symlink_in_memories_is_reported_and_never_recalled(
    service: MemoryService, tmp_path: Path
) -> None:
    outside = tmp_path / "hostname"
    outside.write_text("we always deploy the outside host on fridays\n")
    link = service.vault.memories_dir / "host-link.md"
    link.symlink_to(outside)
    status = service.status()
    assert [path for path, _ in status.problems] == ["memories/host-link.md"]
    assert service.recall("deploy the outside host on fridays") == []
    for verb in (service.show, service.confirm_activation, service.reinforce, service.forget):
        with pytest.raises(BrokenFileError, match="symbolic link"):
            verb("host-link")
    assert os.readlink(link) == str(outside)
    assert outside.read_text() == "we always deploy the outside host on fridays\n"


def test_files_we_cannot_use_are_listed_by_status_and_left_alone(service: MemoryService) -> None:
    dropped = {
        "huge.md": b"word " * 300_000,
        "binary.md": bytes(range(256)) * 8,
        "empty.md": b"",
        "yaml.md": b"---\nstability: [7\n---\nbody\n",
        "bom.md": "\ufeff---\ntopic: testing\n---\nA note with a BOM.\n".encode(),
    }
    for name, data in dropped.items():
        (service.vault.memories_dir / name).write_bytes(data)
    problems = dict(service.status().problems)
    assert set(problems) == {f"memories/{name}" for name in dropped if name != "bom.md"}
    assert service.show("bom")[0].topic == "testing"
    report = service.index.apply([service.vault.memories_dir / "empty.md"])  # the watcher's way
    assert [path for path, _ in report.problems] == ["memories/empty.md"]
    for name, data in dropped.items():
        assert (service.vault.memories_dir / name).read_bytes() == data


def _colliding_readmes(folder: Path) -> tuple[Path, Path]:
    """Two README.md files whose paths share the 16-bit hash in their ids."""
    import hashlib

    seen: dict[str, Path] = {}
    for n in range(100_000):
        path = folder / f"service-{n}" / "README.md"
        digest = hashlib.blake2b(str(path).encode(), digest_size=2).hexdigest()
        if digest in seen:
            return seen[digest], path
        seen[digest] = path
    raise AssertionError("no collision found")


def test_ingest_never_replaces_a_memory_from_another_file(
    service: MemoryService, tmp_path: Path
) -> None:
    first, second = _colliding_readmes(tmp_path / "repos")
    for path, text in ((first, "Billing retries failed charges nightly."),
                       (second, "Search reindexes every hour from the replica.")):  # fmt: skip
        path.parent.mkdir(parents=True)
        path.write_text(f"# README\n\n{text}\n")
    one = service.ingest(first)
    two = service.ingest(second)
    assert one.id != two.id
    assert "Billing retries" in service.store.read(one.id).body  # the first is still there
    assert "Search reindexes" in two.body
    first.write_text("# README\n\nBilling retries failed charges twice a night.\n")
    again = service.ingest(first)  # re-ingesting the same path updates its memory
    assert again.id == one.id
    assert "twice a night" in again.body
    assert service.ingest(second).id == two.id
    assert len(list(service.vault.memory_files())) == 2
