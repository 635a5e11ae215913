"""All of `vault doctor`'s checks in order: the package and the model first (the
later checks need them), then Claude Code's wiring, the vault, its index and files,
the daemon, git sync. A check that cannot run is that check's failure."""

from __future__ import annotations

from collections.abc import Mapping

from hooks.doctor import claude_checks, daemon_checks, git_checks, install_checks, vault_checks
from hooks.doctor.report import Check, failed, guarded
from vault.config import Settings, load_settings
from vault.layout import Vault


def run_checks(vault: Vault, environ: Mapping[str, str]) -> list[Check]:
    checks = [guarded("package", install_checks.package_check, install_checks.REINSTALL)]
    try:
        settings: Settings = load_settings(vault.config_path, environ)
    except Exception as exc:  # a bad setting: every later check would trip on it
        return [*checks, failed("config", str(exc), f"fix {vault.config_path}")]
    model, embedder = install_checks.model_check(settings["model"])
    checks.append(model)
    checks.append(guarded("hooks", lambda: claude_checks.hooks_check(environ), "`vault install`"))
    checks.append(guarded("mcp", lambda: claude_checks.mcp_check(environ), "`vault install`"))
    checks.append(vault_checks.vault_check(vault))
    checks.append(guarded("transcripts", lambda: vault_checks.transcripts_check(environ), ""))
    if not vault.exists():
        return checks
    if embedder is not None:
        index = lambda: vault_checks.index_check(vault, settings, embedder)  # noqa: E731
        checks.append(guarded("index", index, "`vault reindex --full`"))
    checks.append(guarded("perms", lambda: vault_checks.permissions_check(vault), ""))
    checks.append(
        guarded("daemon", lambda: daemon_checks.daemon_check(vault), "`vault daemon restart`")
    )
    try:
        checks += git_checks.sync_checks(vault)
    except Exception as exc:  # git missing or failing: reported as the sync check
        checks.append(failed("sync", str(exc).splitlines()[0], "see `vault sync status`"))
    return checks
