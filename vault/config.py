"""Vault settings: defaults, config.toml and VAULT_* overrides.

Settings are a flat mapping of unique keys grouped in TOML tables. Every key
has a default; `config.toml` may set any; `VAULT_<KEY>` overrides both. A list
setting is a TOML list of strings or one PATH-style string (`a:b`). The caller
passes the environment in; this module never reads it."""

from __future__ import annotations

import os

from vault.errors import VaultError

TYPE_CHECKING = False  # not typing's: on the prompt hook path `import typing` adds ~23 ms
if TYPE_CHECKING:  # the prompt hook loads this module: no pathlib or typing at run time
    from collections.abc import Mapping
    from pathlib import Path
    from typing import Any

# (table, key, default, comment) in the order config.toml shows them.
DEFAULTS: tuple[tuple[str, str, Any, str], ...] = (
    ("memory", "episodic_base_stability", 7.0, "days; a fresh jot"),
    ("memory", "semantic_base_stability", 90.0, "days; after consolidation"),
    ("memory", "curated_base_stability", 365.0, "days; ingested notes"),
    ("memory", "reinforce_factor", 1.5, "a recall hit multiplies stability by this"),
    ("memory", "confirm_factor", 2.5, "a confirmed hedged memory multiplies stability by this"),
    ("memory", "cap_multiplier", 10.0, "stability is capped at this x the tier's base"),
    ("memory", "retrieval_floor", 0.1, "ordinary recall hides memories weaker than this"),
    ("memory", "archive_floor", 0.02, "prune archives memories weaker than this"),
    ("memory", "prune_curated", False, "whether prune may archive curated notes"),
    ("recall", "min_similarity", 0.17, "recall ignores matches less similar than this"),
    ("recall", "confident_bar", 0.2, "similarity x strength for the confident tier"),
    ("recall", "confident_cosine", 0.45, "cosine (meaning) a confident memory needs as well"),
    ("recall", "activated_bar", 0.085, "similarity x strength for the activated tier"),
    ("recall", "cue_bar", 0.14, "similarity alone that lets a faint memory ring a bell"),
    ("recall", "cold_bar", 0.34, "similarity a cold (archived) memory needs"),
    ("recall", "project_boost", 1.3, "score multiplier for the current project"),
    ("recall", "topic_boost", 1.2, "score multiplier for a matching topic_hint"),
    ("recall", "confidence_weight", 0.5, "score x (1 + this x (confidence - 0.5))"),
    ("association", "link_bar", 0.375, "cosine two memories need to be linked"),
    ("association", "links_max", 5, "nearest memories a memory links to (links are mirrored)"),
    ("association", "link_spread", 0.5, "a linked memory's score as a share of its hit's"),
    ("association", "session_spread", 0.8, "share of a hit's score for the next in its session"),
    ("association", "session_back_spread", 0.0, "share for the one just before it"),
    ("association", "session_window", 1, "memories either side in the session that count"),
    (
        "lifecycle",
        "evergreen_paths",
        ["memories/decisions/**"],
        "globs of memories that never fade",
    ),
    (
        "lifecycle",
        "evergreen_kinds",
        ["decision", "convention", "prohibition", "correction"],
        "kinds that never fade (what capture judges durable)",
    ),
    ("lifecycle", "salience_paths", [], "glob=factor: salience x factor, e.g. memories/core/**=3"),
    ("lifecycle", "appearance_boost", 0.05, "score x (1 + this x appearances in the window)"),
    ("lifecycle", "appearance_window_days", 7.0, "days an appearance in results counts"),
    ("lifecycle", "appearance_max_boost", 0.3, "most the appearances add"),
    ("lifecycle", "periodic_bonus", 0.15, "score x (1 + this x periodic levels linking it)"),
    ("lifecycle", "periodic_max_bonus", 0.5, "most the periodic links add"),
    ("filing", "topic_bar", 0.05, "TF-IDF cosine to a topic's centroid needed to file"),
    ("index", "model", "", "sentence-transformers name or path; empty = bundled all-MiniLM-L6-v2"),
    ("index", "vector_weight", 0.4, "weight of cosine similarity in hybrid search"),
    ("index", "keyword_weight", 0.6, "weight of normalised BM25 in hybrid search"),
    ("index", "bm25_saturation", 8.0, "BM25 score that normalises to 0.5"),
    ("index", "context_weight", 0.4, "keyword weight of the words said around a memory"),
    ("index", "session_cosine", 0.5, "share of the gap to a closer session neighbour's cosine"),
    ("index", "chunk_words", 400, "long notes are embedded in chunks of this many words"),
    ("index", "chunk_overlap", 80, "words shared by neighbouring chunks"),
    ("daemon", "daemon_idle_seconds", 28800, "the warm daemon exits after this long unused"),
    ("hooks", "hook_context_chars", 2000, "most characters a prompt hook injects (<= 10000)"),
    ("hooks", "hook_timeout_seconds", 2.0, "how long a tool hook waits for the daemon"),
    ("hooks", "hook_cold_wait_seconds", 12.0, "how long a prompt waits for a busy or cold daemon"),
    ("hooks", "push_channels", True, "bring memories when Claude edits a file or runs a command"),
    ("capture", "project_override", "", "project identity to use instead of the git remote"),
    ("capture", "llm_extraction", False, "also extract memories with `claude -p` (uses your plan)"),
    ("capture", "llm_model", "haiku", "model alias for `claude -p` extraction"),
    ("capture", "llm_budget_usd", 0.05, "most one extraction call may spend"),
    ("capture", "transcripts_allowed", [], "folders of transcripts besides <claude>/projects"),
    ("ingest", "ingest_allowed", [], "folders MCP ingest may read besides the vault and project"),
    ("sync", "sync_interval_minutes", 0, "the daemon runs `vault sync` this often; 0 = never"),
    ("sync", "sync_quiet_seconds", 60, "automatic sync waits until no request came for this long"),
    (
        "notes",
        "briefing_periodic_share",
        0.25,
        "share of the briefing for this week's and month's notes; 0 = none",
    ),
    (
        "notes",
        "briefing_ccl_tier",
        0,
        "compress briefing memories with CCL tier 1-3 to fit more; 0 = plain English",
    ),
    ("compaction", "compaction_watch", False, "the daemon follows transcripts for compactions"),
    ("compaction", "compaction_poll_seconds", 10.0, "how often the daemon's watcher looks"),
    ("consolidation", "consolidate_every_days", 3.0, "automatic consolidation at most this often"),
    ("consolidation", "consolidate_min_memories", 50, "and only above this many active memories"),
    ("consolidation", "merge_maturity", 5, "a group of duplicates merges once this large"),
    ("consolidation", "merge_bar", 0.42, "mean similarity a group of duplicates needs"),
    ("consolidation", "dedupe_cosine", 0.92, "cosine at which two memories are one (any size)"),
    ("consolidation", "contradiction_cosine", 0.4, "cosine an update needs to its older fact"),
    ("consolidation", "interference_factor", 0.7, "an updated memory's salience x this at once"),
    ("consolidation", "gist_after_days", 7.0, "long episodic memories older than this are gisted"),
    ("consolidation", "gist_min_sentences", 3, "sentences a memory needs to be gisted"),
    ("consolidation", "pattern_min_memories", 3, "memories a recurring theme needs"),
    ("consolidation", "salience_learn_after", 50, "signals before salience weights adapt"),
)
_TYPES = {key: type(default) for _, key, default, _ in DEFAULTS}


class Settings:
    """Read-only view of the resolved settings (a plain class: the hook path
    avoids importing dataclasses)."""

    __slots__ = ("values",)

    def __init__(self, values: Mapping[str, Any]) -> None:
        self.values = dict(values)

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def section(self, table: str) -> dict[str, Any]:
        return {key: self.values[key] for tbl, key, _, _ in DEFAULTS if tbl == table}


def load_settings(
    config_path: Path | str | None, environ: Mapping[str, str] | None = None
) -> Settings:
    values = {key: _copy(default) for _, key, default, _ in DEFAULTS}
    try:
        text = ""
        if config_path and os.path.isfile(config_path):
            with open(config_path, encoding="utf-8") as handle:
                text = handle.read()
    except UnicodeDecodeError as exc:
        raise VaultError(f"{config_path}: not UTF-8 text; fix or delete it") from exc
    if _has_settings(text):
        import tomllib

        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise VaultError(f"{config_path}: not valid TOML ({exc}); fix or delete it") from exc
        for table, entries in data.items():
            items = entries.items() if isinstance(entries, dict) else [(table, entries)]
            for key, value in items:
                values[key] = _coerce(key, value, str(config_path))
    for key in values:
        env_value = (environ or {}).get(f"VAULT_{key.upper()}")
        if env_value is not None:
            values[key] = _coerce(key, env_value, f"VAULT_{key.upper()}")
    return Settings(values)


def _has_settings(text: str) -> bool:
    """Whether a config file sets anything (the default one is all comments)."""
    return any(
        line.strip() and not line.lstrip().startswith(("#", "[")) for line in text.splitlines()
    )


def _copy(default: Any) -> Any:
    return list(default) if isinstance(default, list) else default


def _coerce(key: str, value: Any, origin: str) -> Any:
    if key not in _TYPES:
        raise VaultError(f"{origin}: unknown setting {key!r}")
    wanted = _TYPES[key]
    if wanted is list:
        if isinstance(value, str):
            return [part for part in value.split(os.pathsep) if part]
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return list(value)
        raise VaultError(f"{origin}: {key} must be a list of folders, got {value!r}")
    try:
        if wanted is bool:
            if isinstance(value, str):
                lowered = value.strip().lower()
                if lowered not in {"1", "0", "true", "false", "yes", "no"}:
                    raise ValueError(value)
                return lowered in {"1", "true", "yes"}
            return bool(value)
        return wanted(value)
    except (TypeError, ValueError) as exc:
        raise VaultError(f"{origin}: {key} must be a {wanted.__name__}, got {value!r}") from exc


def default_config_text() -> str:
    """config.toml with every default written out as a comment."""
    lines = [
        "# memory-vault settings. Every key has a default (shown commented out).",
        "# An environment variable VAULT_<KEY> overrides the file, e.g. VAULT_CUE_BAR=0.45.",
    ]
    table = ""
    for tbl, key, default, comment in DEFAULTS:
        if tbl != table:
            lines += ["", f"[{tbl}]"]
            table = tbl
        if isinstance(default, list):
            shown = "[" + ", ".join(f'"{item}"' for item in default) + "]"
        else:
            shown = f'"{default}"' if isinstance(default, str) else str(default).lower()
        lines.append(f"# {key} = {shown}    # {comment}")
    return "\n".join(lines) + "\n"
