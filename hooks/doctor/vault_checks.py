"""The vault on disk: the folder, the index against the files (counts, generation,
schema), permissions (ours to write, the private folders private) and Claude Code's
transcripts folder readable. Reads only; a stale index is reported, not rebuilt."""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from pathlib import Path

from hooks.claude_code.config_dir import claude_dir
from hooks.doctor.report import Check, failed, passed
from indexer.embedder import Embedder
from indexer.index import VaultIndex
from vault.config import Settings
from vault.layout import Vault

PRIVATE = 0o077  # group and other bits that .index/ and .state/ must not have


def vault_check(vault: Vault) -> Check:
    if not vault.exists():
        return failed("vault", f"no vault at {vault.root}", "`vault init` (or set VAULT_HOME)")
    count = sum(1 for _ in vault.memory_files())
    return passed("vault", f"{vault.root}: {count} memory files")


def index_check(vault: Vault, settings: Settings, embedder: Embedder) -> Check:
    from indexer.catalog import SCHEMA_VERSION
    from indexer.errors import CorruptIndexError

    index = VaultIndex(vault, settings, embedder=embedder)
    try:
        stats = index.stats()
        pending = index.check()
        schema = index.catalog.get_meta("schema_version")
    except CorruptIndexError as exc:  # an old schema, a damaged file: the writer rebuilds
        return failed("index", str(exc), "`vault reindex --full` (or any write) rebuilds it")
    finally:
        index.close()
    files = sum(1 for _ in vault.memory_files())
    documents = int(str(stats.get("documents", 0)))
    in_folders = f" (and {documents} documents of indexed folders)" if documents else ""
    detail = (
        f"{int(str(stats['memories'])) - documents} indexed of {files} files{in_folders}, "
        f"generation {stats['generation']}, schema {schema}"
    )
    notices = index.events.notices
    if schema != SCHEMA_VERSION or notices:
        why = notices[0] if notices else f"schema {schema}, this release reads {SCHEMA_VERSION}"
        return failed("index", f"{detail}: {why}", "`vault reindex --full`")
    if pending.changed:
        return failed("index", f"{detail}: out of date ({pending.summary()})", "`vault reindex`")
    return passed("index", detail)


def _ours_to_write(path: Path) -> bool:
    info = path.lstat()
    return info.st_uid == os.getuid() and bool(info.st_mode & stat.S_IWUSR)


def permissions_check(vault: Vault) -> Check:
    folders = [vault.root, vault.memories_dir, vault.archive_dir, vault.index_dir, vault.state_dir]
    paths = [folder for folder in folders if folder.exists()] + list(vault.memory_files())
    foreign = [path for path in paths if not _ours_to_write(path)]
    if foreign:
        return failed(
            "perms",
            f"{len(foreign)} paths are not ours to write, e.g. {foreign[0]}",
            f"`chown -R $(id -u) {vault.root}` and `chmod -R u+rwX {vault.root}`",
        )
    open_to_others = [
        folder
        for folder in (vault.index_dir, vault.state_dir)
        if folder.exists() and folder.stat().st_mode & PRIVATE
    ]
    if open_to_others:
        folder = open_to_others[0]
        return failed("perms", f"{folder} is open to other users", f"`chmod 700 {folder}`")
    return passed("perms", f"{len(paths)} paths ours to write; .index and .state private")


def transcripts_check(environ: Mapping[str, str]) -> Check:
    folder = claude_dir(environ) / "projects"
    if not folder.exists():
        return passed("transcripts", f"{folder} not there yet (no Claude Code session so far)")
    info = folder.stat()
    wanted = stat.S_IRUSR | stat.S_IXUSR
    readable = (
        (info.st_mode & wanted) == wanted
        if info.st_uid == os.getuid()
        else (os.access(folder, os.R_OK | os.X_OK))
    )
    if not stat.S_ISDIR(info.st_mode) or not readable:
        return failed("transcripts", f"{folder} cannot be read", f"`chmod u+rx {folder}`")
    return passed("transcripts", f"{folder} readable")
