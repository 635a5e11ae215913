"""Vault settings: one typed declaration of each, config.toml and VAULT_* overrides.

The Settings class body declares every setting once: its config.toml table, its
type (the annotation), default, range and help (`vault config` lists them, and
`vault init` writes them as a commented config.toml). Values are checked once,
at load: a wrong type, a value out of range or an unknown key is a one-line
VaultError naming the key. `VAULT_<KEY>` overrides the file; a list setting is a
TOML list of strings or one PATH-style string (`a:b`). The caller passes the
environment in; this module never reads it. No `typing` or `dataclasses` at run
time: the prompt hook loads it."""

from __future__ import annotations

import os

from vault.errors import VaultError
from vault.setting_types import (
    Declared,
    SettingValue,
    check,
    check_text,
    declare,
    toml_value,
)

TYPE_CHECKING = False  # not typing's: on the prompt hook path `import typing` adds ~23 ms
if TYPE_CHECKING:  # the prompt hook loads this module: no pathlib or typing at run time
    from collections.abc import Mapping
    from pathlib import Path


class Settings:
    """The resolved settings: one read-only attribute per setting, of its declared type."""

    # [memory]
    episodic_base_stability: float = declare("memory", 7.0, "days; a fresh jot", low=0.01)
    semantic_base_stability: float = declare("memory", 90.0, "days; after consolidation", low=0.01)
    curated_base_stability: float = declare("memory", 365.0, "days; ingested notes", low=0.01)
    status_stability: float = declare(
        "memory", 2.0, "days; a statement bounded to now (kind status)", low=0.01
    )
    reinforce_factor: float = declare(
        "memory", 1.5, "a recall hit multiplies stability by this", low=1.0
    )
    confirm_factor: float = declare(
        "memory", 2.5, "a confirmed hedged memory multiplies stability by this", low=1.0
    )
    cap_multiplier: float = declare(
        "memory", 10.0, "stability is capped at this x the tier's base", low=1.0
    )
    retrieval_floor: float = declare(
        "memory", 0.1, "ordinary recall hides memories weaker than this", low=0.0, high=1.0
    )
    archive_floor: float = declare(
        "memory", 0.02, "prune archives memories weaker than this", low=0.0, high=1.0
    )
    prune_curated: bool = declare("memory", False, "whether prune may archive curated notes")
    # [recall]
    min_similarity: float = declare(
        "recall", 0.17, "recall ignores matches less similar than this", low=0.0, high=1.0
    )
    min_cosine: float = declare(
        "recall", 0.3, "...unless their meaning is this close (no shared words)", low=-1.0, high=1.0
    )
    confident_bar: float = declare(
        "recall", 0.2, "similarity x strength for the confident tier", low=0.0
    )
    confident_cosine: float = declare(
        "recall", 0.5, "cosine (meaning) a confident memory needs as well", low=-1.0, high=1.0
    )
    hedged_cosine: float = declare(
        "recall", 0.4, "cosine a hedged memory needs for the prompt hook to show it", low=-1, high=1
    )
    hedged_gap: float = declare(
        "recall", 0.05, "how far below the best match a hedged memory may be", low=0.0
    )
    activated_bar: float = declare(
        "recall", 0.085, "similarity x strength for the activated tier", low=0.0
    )
    cue_bar: float = declare(
        "recall", 0.14, "similarity alone that lets a faint memory ring a bell", low=0.0
    )
    cold_bar: float = declare("recall", 0.34, "similarity a cold (archived) memory needs", low=0.0)
    project_boost: float = declare(
        "recall", 1.3, "score multiplier for the current project", low=0.0
    )
    topic_boost: float = declare(
        "recall", 1.2, "score multiplier for a matching topic_hint", low=0.0
    )
    confidence_weight: float = declare(
        "recall", 0.5, "score x (1 + this x (confidence - 0.5))", low=0.0
    )
    # [association]
    link_bar: float = declare(
        "association", 0.375, "cosine two memories need to be linked", low=-1.0, high=1.0
    )
    links_max: int = declare(
        "association", 5, "nearest memories a memory links to (links are mirrored)", low=0, high=100
    )
    link_spread: float = declare(
        "association", 0.5, "a linked memory's score as a share of its hit's", low=0.0, high=1.0
    )
    session_spread: float = declare(
        "association", 0.8, "share of a hit's score for the next in its session", low=0.0, high=1.0
    )
    session_back_spread: float = declare(
        "association", 0.0, "share for the one just before it", low=0.0, high=1.0
    )
    session_window: int = declare(
        "association", 1, "memories either side in the session that count", low=0, high=50
    )
    # [lifecycle]
    evergreen_paths: tuple[str, ...] = declare(
        "lifecycle", ("memories/decisions/**",), "globs of memories that never fade"
    )
    evergreen_kinds: tuple[str, ...] = declare(
        "lifecycle",
        ("decision", "convention", "prohibition", "correction"),
        "kinds that never fade (what capture judges durable)",
    )
    salience_paths: tuple[str, ...] = declare(
        "lifecycle", (), "glob=factor: salience x factor, e.g. memories/core/**=3"
    )
    appearance_boost: float = declare(
        "lifecycle", 0.05, "score x (1 + this x appearances in the window)", low=0.0
    )
    appearance_window_days: float = declare(
        "lifecycle", 7.0, "days an appearance in results counts", low=0.0
    )
    appearance_max_boost: float = declare("lifecycle", 0.3, "most the appearances add", low=0.0)
    periodic_bonus: float = declare(
        "lifecycle", 0.15, "score x (1 + this x periodic levels linking it)", low=0.0
    )
    periodic_max_bonus: float = declare("lifecycle", 0.5, "most the periodic links add", low=0.0)
    # [filing]
    topic_bar: float = declare(
        "filing", 0.05, "TF-IDF cosine to a topic's centroid needed to file", low=0.0, high=1.0
    )
    # [index]
    model: str = declare(
        "index",
        "",
        "sentence-transformers name or path; empty = bundled all-MiniLM-L6-v2",
        per_call=False,
    )
    vector_weight: float = declare(
        "index",
        0.4,
        "weight of cosine similarity in hybrid search",
        low=0.0,
        high=1.0,
        per_call=False,
    )
    keyword_weight: float = declare(
        "index",
        0.6,
        "weight of normalised BM25 in hybrid search",
        low=0.0,
        high=1.0,
        per_call=False,
    )
    bm25_saturation: float = declare(
        "index", 8.0, "BM25 score that normalises to 0.5", low=0.01, per_call=False
    )
    context_weight: float = declare(
        "index",
        0.4,
        "keyword weight of the words said around a memory",
        low=0.0,
        high=1.0,
        per_call=False,
    )
    session_cosine: float = declare(
        "index",
        0.5,
        "share of the gap to a closer session neighbour's cosine",
        low=0.0,
        high=1.0,
        per_call=False,
    )
    chunk_words: int = declare(
        "index",
        400,
        "long notes are embedded in chunks of this many words",
        low=20,
        high=10000,
        per_call=False,
    )
    chunk_overlap: int = declare(
        "index", 80, "words shared by neighbouring chunks", low=0, high=5000, per_call=False
    )
    # [folders]
    index_paths: tuple[str, ...] = declare(
        "folders",
        (),
        "folders indexed in place (read, never written); ~ is expanded",
        per_call=False,
    )
    index_extensions: tuple[str, ...] = declare(
        "folders",
        (".md", ".markdown", ".txt", ".rst"),
        "file endings indexed in those folders",
        per_call=False,
    )
    index_max_depth: int = declare(
        "folders",
        3,
        "folder levels below each one looked into; 0 = its own files only",
        low=0,
        high=64,
        per_call=False,
    )
    index_skip_dirs: tuple[str, ...] = declare(
        "folders",
        (".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", ".tox",
         ".mypy_cache", ".pytest_cache", "build", "dist", ".obsidian", ".trash"),
        "folder names never looked into (hidden folders never are either)",
        per_call=False,
    )  # fmt: skip
    # [categories]
    categories: tuple[str, ...] = declare(
        "categories", (), "category names `recall -c` accepts besides those in category_rules"
    )
    category_rules: tuple[str, ...] = declare(
        "categories", (), "glob=category: memories by vault path, folder files by full path"
    )
    # [daemon]
    daemon_idle_seconds: int = declare(
        "daemon", 28800, "the warm daemon exits after this long unused", low=1, per_call=False
    )
    daemon_quick_sync_files: int = declare(
        "daemon",
        50000,
        "above this many memories the daemon stats only changed folders (full scan hourly)",
        low=0,
        per_call=False,
    )
    daemon_index_check_seconds: float = declare(
        "daemon",
        300.0,
        "how often an idle daemon looks for changes its watcher missed (0: never)",
        low=0.0,
        per_call=False,
    )
    # [hooks]
    hook_context_chars: int = declare(
        "hooks", 2000, "most characters a prompt hook injects (<= 10000)", low=0, high=10000
    )
    hook_confident_max: int = declare(
        "hooks", 2, "most confident memories a prompt hook injects", low=0, high=50
    )
    hook_hedged_max: int = declare(
        "hooks", 2, "most might-be-related memories a prompt hook injects", low=0, high=50
    )
    hook_timeout_seconds: float = declare(
        "hooks", 2.0, "how long a tool hook waits for the daemon", low=0.0, high=600.0
    )
    hook_cold_wait_seconds: float = declare(
        "hooks", 12.0, "how long a prompt waits for a busy or cold daemon", low=0.0, high=600.0
    )
    push_on_success: bool = declare(
        "hooks", False, "`vault install` adds PostToolUse: memories after an edit or write too"
    )
    push_channels: bool = declare(
        "hooks", True, "bring memories when Claude edits a file or runs a command"
    )
    # [capture]
    project_override: str = declare(
        "capture", "", "project identity to use instead of the git remote"
    )
    llm_extraction: bool = declare(
        "capture", False, "also extract memories with `claude -p` (uses your plan)"
    )
    llm_model: str = declare("capture", "haiku", "model alias for `claude -p` extraction")
    llm_budget_usd: float = declare("capture", 0.05, "most one extraction call may spend", low=0.0)
    transcripts_allowed: tuple[str, ...] = declare(
        "capture", (), "folders of transcripts besides <claude>/projects"
    )
    # [ingest]
    ingest_allowed: tuple[str, ...] = declare(
        "ingest", (), "folders MCP ingest may read besides the vault and project"
    )
    # [sync]
    sync_interval_minutes: int = declare(
        "sync", 0, "the daemon runs `vault sync` this often; 0 = never", low=0, per_call=False
    )
    sync_quiet_seconds: int = declare(
        "sync",
        60,
        "automatic sync waits until no request came for this long",
        low=0,
        per_call=False,
    )
    # [notes]
    briefing_max_memories: int = declare(
        "notes",
        12,
        "most memories the SessionStart briefing lists (within its characters)",
        low=1,
        high=200,
    )
    briefing_periodic_share: float = declare(
        "notes",
        0.25,
        "share of the briefing for this week's and month's notes; 0 = none",
        low=0.0,
        high=1.0,
    )
    llm_briefing: bool = declare(
        "notes", False, "`claude -p` rewrites the SessionStart briefing (redacted first)"
    )
    llm_briefing_seconds: float = declare(
        "notes", 8.0, "most the briefing waits for it; then the rule-based one", low=1.0, high=12.0
    )
    daily_folder: str = declare(
        "notes", "daily", "folder of the daily logs, relative to the vault", per_call=False
    )
    weekly_folder: str = declare(
        "notes", "periodic/weekly", "folder of weekly notes", per_call=False
    )
    monthly_folder: str = declare(
        "notes", "periodic/monthly", "folder of monthly notes", per_call=False
    )
    quarterly_folder: str = declare(
        "notes", "periodic/quarterly", "folder of quarterly notes", per_call=False
    )
    yearly_folder: str = declare(
        "notes", "periodic/yearly", "folder of yearly notes", per_call=False
    )
    briefing_ccl_tier: int = declare(
        "notes",
        0,
        "compress briefing memories with CCL tier 1-3 to fit more; 0 = plain English",
        low=0,
        high=3,
    )
    # [compaction]
    compaction_watch: bool = declare(
        "compaction", False, "the daemon follows transcripts for compactions", per_call=False
    )
    compaction_poll_seconds: float = declare(
        "compaction", 10.0, "how often the daemon's watcher looks", low=0.1, per_call=False
    )
    # [consolidation]
    consolidate_every_days: float = declare(
        "consolidation", 3.0, "automatic consolidation at most this often", low=0.0
    )
    consolidate_min_memories: int = declare(
        "consolidation", 50, "and only above this many active memories", low=0
    )
    auto_retire_limit: int = declare(
        "consolidation", 20, "an automatic run retires at most this many", low=0
    )
    auto_retire_share: float = declare(
        "consolidation", 0.03, "... and at most this share of active memories", low=0.0, high=1.0
    )
    auto_supersede: bool = declare(
        "consolidation",
        False,
        "an automatic run retires by supersede on its own (off: to the review list)",
    )
    auto_merge: bool = declare(
        "consolidation",
        False,
        "an automatic run retires by merge on its own (off: to the review list)",
    )
    merge_maturity: int = declare(
        "consolidation", 5, "a group of duplicates merges once this large", low=2
    )
    merge_bar: float = declare(
        "consolidation", 0.42, "mean similarity a group of duplicates needs", low=-1.0, high=1.0
    )
    dedupe_cosine: float = declare(
        "consolidation", 0.92, "cosine at which two memories are one (any size)", low=-1.0, high=1.0
    )
    contradiction_cosine: float = declare(
        "consolidation", 0.4, "cosine an update needs to its older fact", low=-1.0, high=1.0
    )
    interference_factor: float = declare(
        "consolidation", 0.7, "an updated memory's salience x this at once", low=0.0, high=1.0
    )
    gist_after_days: float = declare(
        "consolidation", 7.0, "long episodic memories older than this are gisted", low=0.0
    )
    gist_min_sentences: int = declare(
        "consolidation", 3, "sentences a memory needs to be gisted", low=1
    )
    llm_gist: bool = declare(
        "consolidation", False, "`claude -p` writes old episodes' gists (redacted first)"
    )
    llm_gist_seconds: float = declare(
        "consolidation", 60.0, "most a run waits for the gists; then the rule-based ones", low=1.0
    )
    pattern_min_memories: int = declare(
        "consolidation", 3, "memories a recurring theme needs", low=2
    )
    salience_learn_after: int = declare(
        "consolidation", 50, "signals before salience weights adapt", low=0
    )

    def __init__(self, values: Mapping[str, SettingValue]) -> None:
        """`values`: checked values by key (load_settings); the rest keep their defaults."""
        for spec in SETTINGS:
            object.__setattr__(self, spec.key, values.get(spec.key, spec.default))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"settings are read-only ({name})")

    def value(self, key: str) -> SettingValue:
        """One setting by name, for the JSON edges (`vault config --json`)."""
        if key not in BY_KEY:
            raise VaultError(f"unknown setting {key!r}")
        value: SettingValue = getattr(self, key)
        return value

    def as_dict(self) -> dict[str, SettingValue]:
        return {spec.key: self.value(spec.key) for spec in SETTINGS}

    def with_overrides(self, overrides: Mapping[str, object]) -> Settings:
        """These settings with a request's VAULT_<KEY> overrides (key -> the variable's
        text), checked exactly as the environment's are."""
        values = self.as_dict()
        for key, text in overrides.items():
            spec = BY_KEY.get(key)
            origin = f"VAULT_{key.upper()}"
            if spec is None:
                raise VaultError(f"{origin}: unknown setting {key!r}")
            if not isinstance(text, str):
                raise VaultError(f"{origin}: must be text as in the environment, got {text!r}")
            values[key] = check_text(spec, text, origin)
        return Settings(values)


def _bind(owner: type) -> tuple[Declared, ...]:
    """The declarations in the class body, named after their attributes and typed
    by their annotations (strings here: `from __future__ import annotations`)."""
    annotations: dict[str, str] = owner.__dict__["__annotations__"]
    found = []
    for name, attribute in owner.__dict__.items():
        if isinstance(attribute, Declared):
            attribute.bind(name, annotations[name])
            found.append(attribute)
    return tuple(found)


SETTINGS = _bind(Settings)
BY_KEY = {spec.key: spec for spec in SETTINGS}


def env_overrides(environ: Mapping[str, str], per_call_only: bool = False) -> dict[str, str]:
    """The VAULT_<KEY> variables in `environ` that name a setting: key -> text.
    `per_call_only`: leave out those a daemon reads once at start (what a hook or
    the MCP server sends: the daemon they talk to was started for them)."""
    found = {}
    for spec in SETTINGS:
        if per_call_only and not spec.per_call:
            continue
        text = environ.get(f"VAULT_{spec.key.upper()}")
        if text is not None:
            found[spec.key] = text
    return found


def load_settings(
    config_path: Path | str | None, environ: Mapping[str, str] | None = None
) -> Settings:
    """The defaults, then config.toml, then VAULT_<KEY> variables, each value checked."""
    values = file_values(config_path)
    for key, text in env_overrides(environ or {}).items():
        values[key] = check_text(BY_KEY[key], text, f"VAULT_{key.upper()}")
    return Settings(values)


def file_values(config_path: Path | str | None) -> dict[str, SettingValue]:
    """The settings config.toml sets, checked (any table, or none, holds any key)."""
    try:
        text = ""
        if config_path and os.path.isfile(config_path):
            with open(config_path, encoding="utf-8") as handle:
                text = handle.read()
    except UnicodeDecodeError as exc:
        raise VaultError(f"{config_path}: not UTF-8 text; fix or delete it") from exc
    values: dict[str, SettingValue] = {}
    if not _has_settings(text):
        return values
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VaultError(f"{config_path}: not valid TOML ({exc}); fix or delete it") from exc
    for table, entries in data.items():
        items = entries.items() if isinstance(entries, dict) else [(table, entries)]
        for key, value in items:
            spec = BY_KEY.get(key)
            if spec is None:
                raise VaultError(f"{config_path}: unknown setting {key!r}")
            values[key] = check(spec, value, str(config_path))
    return values


def _has_settings(text: str) -> bool:
    """Whether a config file sets anything (the default one is all comments)."""
    return any(
        line.strip() and not line.lstrip().startswith(("#", "[")) for line in text.splitlines()
    )


def default_config_text() -> str:
    """config.toml with every default written out as a comment."""
    lines = [
        "# memory-vault settings. Every key has a default (shown commented out).",
        "# An environment variable VAULT_<KEY> overrides the file, e.g. VAULT_CUE_BAR=0.45.",
        "# `vault config` lists each with its help; a wrong type or range is an error.",
    ]
    table = ""
    for spec in SETTINGS:
        if spec.table != table:
            lines += ["", f"[{spec.table}]"]
            table = spec.table
        lines.append(f"# {spec.key} = {toml_value(spec.default)}    # {spec.help}")
    return "\n".join(lines) + "\n"
