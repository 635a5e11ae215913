"""Shared fixtures: a vault under tmp_path, an injected clock, the real model once."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from indexer.embedder import Embedder, bundled_encoder
from indexer.index import VaultIndex
from memory.service import MemoryService
from vault.clock import parse_time
from vault.config import load_settings
from vault.layout import Vault

os.environ.setdefault("HF_HUB_OFFLINE", "1")
# The bundled model's ONNX export (made once: ~30 s of CPU) is shared by every test
# and every process a test starts, whatever HOME the test gives them.
os.environ.setdefault("VAULT_MODEL_CACHE", str(Path(__file__).parent.parent / ".cache" / "models"))
T0 = parse_time("2026-01-01T09:00:00Z")
_MADE_BASETEMP = pytest.StashKey[str]()


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """A short temp root when none is given: under pytest-xdist (addopts) each worker's
    folder is ROOT/popen-gwN, and a vault's socket path must fit AF_UNIX's 108 bytes
    (or the daemon falls back to the shared temp folder, which some tests rule out).
    /tmp/vt-XXXXXXXX/popen-gw0 (26 bytes) is shorter than pytest's serial root (30)."""
    if config.option.basetemp is None and not hasattr(config, "workerinput"):
        config.option.basetemp = tempfile.mkdtemp(prefix="vt-")
        config.stash[_MADE_BASETEMP] = config.option.basetemp


# The files that take longest (from `pytest --durations`), longest first; the rest
# keep their order. Under `--dist loadfile` a worker takes one file at a time, and a
# long file taken last is the suite's tail while the other worker idles (addopts:
# `--no-loadscope-reorder`, or xdist puts the files with the most tests first).
LONGEST_FIRST = (
    "tests/packaging/test_uv_tool_install.py",
    "tests/hooks/cli/test_indexed_folders.py",
    "tests/hooks/test_secrets_end_to_end.py",
    "tests/memory/consolidation/test_bounded_runs.py",
    "tests/indexer/test_onnx_encoder.py",
    "tests/memory/test_year_bench.py",
    "tests/hooks/mcp/test_mcp.py",
    "tests/hooks/cli/test_cli_surface.py",
    "tests/hooks/cli/test_every_field_redacted.py",
    "tests/hooks/cli/test_cli.py",
    "tests/hooks/cli/test_every_command.py",
    "tests/hooks/daemon/test_one_writer.py",
    "tests/claude_code/test_vault_install.py",
    "tests/claude_code/test_replies.py",
    "tests/claude_code/test_plugin_path.py",
    "tests/hooks/cli/test_reindex_resume.py",
    "tests/hooks/cli/test_changelog.py",
    "tests/hooks/cli/test_sync.py",
    "tests/hooks/test_data_safety.py",
    "tests/hooks/daemon/test_quick_sync.py",
    "tests/indexer/test_published.py",
    "tests/indexer/test_scale_store.py",
    "tests/hooks/cli/test_concurrent_writers.py",
    "tests/claude_code/test_plugin_install.py",
    "tests/packaging/test_pipx_install.py",
    "tests/hooks/test_api.py",
    "tests/hooks/daemon/test_daemon.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    rank = {name: n for n, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Remove the temp root of a green run; a failed run's stays to be looked at."""
    made = session.config.stash.get(_MADE_BASETEMP, None)
    if made is not None and exitstatus == 0:
        shutil.rmtree(made, ignore_errors=True)


class FakeClock:
    def __init__(self, start: datetime = T0) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, days: float = 0, **kwargs: float) -> None:
        self.now = self.now + timedelta(days=days, **kwargs)

    def at_day(self, days: float) -> None:
        self.now = T0 + timedelta(days=days)


@pytest.fixture(autouse=True)
def _isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VAULT_HOME", str(tmp_path / "vault"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "home" / ".config"))
    monkeypatch.delenv("VAULT_NOW", raising=False)


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    v = Vault(tmp_path / "vault")
    MemoryService.init_vault(v)
    return v


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    """The real all-MiniLM-L6-v2 as every `vault` process runs it (ONNX Runtime, the
    bundled model's export), loaded once per worker; it keeps the vectors of the
    texts it encoded last, as the daemon does."""
    model = bundled_encoder()
    model.encode(["warm up"])
    return model


ServiceFactory = Callable[..., MemoryService]


@pytest.fixture
def make_service(vault: Vault, clock: FakeClock, embedder: Embedder) -> Iterator[ServiceFactory]:
    made: list[MemoryService] = []

    def factory(**env: str) -> MemoryService:
        settings = load_settings(vault.config_path, env)
        index = VaultIndex(vault, settings, embedder=embedder)
        service = MemoryService(vault, settings, clock=clock, index=index)
        made.append(service)
        return service

    yield factory
    for service in made:
        service.index.close()


@pytest.fixture
def service(make_service: ServiceFactory) -> MemoryService:
    return make_service()
