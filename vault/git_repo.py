"""The git command line, run as a subprocess in a vault that is a repository:
one runner with a clean environment (no prompts, English messages, bounded
time) and the few queries sync needs. Nothing here decides what to sync.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

from vault.errors import VaultError

NETWORK_TIMEOUT = 300.0  # seconds for fetch and push
LOCAL_TIMEOUT = 120.0


class GitError(VaultError):
    """A git command failed; the message carries git's own words."""


class Git:
    def __init__(self, root: Path, environ: Mapping[str, str] | None = None) -> None:
        self.root = root
        base = dict(os.environ if environ is None else environ)
        # Never wait for a password prompt (the daemon has no terminal); parseable English.
        base.update(GIT_TERMINAL_PROMPT="0", LC_ALL="C", LANGUAGE="C", GIT_EDITOR="true")
        self.env = base

    def run(
        self, *args: str, check: bool = True, timeout: float = LOCAL_TIMEOUT
    ) -> subprocess.CompletedProcess[str]:
        try:
            result = subprocess.run(
                ["git", *args],
                cwd=self.root,
                env=self.env,
                capture_output=True,
                text=True,
                timeout=timeout,
                check=False,
            )
        except FileNotFoundError:
            raise GitError("git is not installed (or not on PATH); install git first") from None
        except subprocess.TimeoutExpired:
            raise GitError(f"git {args[0]} took longer than {timeout:.0f} s; try again") from None
        if check and result.returncode != 0:
            detail = (result.stderr or result.stdout).strip().splitlines()
            raise GitError(
                f"git {' '.join(args[:2])} failed in {self.root}: " + " ".join(detail)[:400]
            )
        return result

    def out(self, *args: str, timeout: float = LOCAL_TIMEOUT) -> str:
        return self.run(*args, timeout=timeout).stdout.strip()

    def ok(self, *args: str) -> bool:
        return self.run(*args, check=False).returncode == 0

    # Queries -------------------------------------------------------------------

    def toplevel(self) -> Path | None:
        result = self.run("rev-parse", "--show-toplevel", check=False)
        return Path(result.stdout.strip()) if result.returncode == 0 else None

    def is_own_repo(self) -> bool:
        """Whether the vault folder is the top of a git work tree."""
        top = self.toplevel()
        return top is not None and top.resolve() == self.root.resolve()

    def branch(self) -> str:
        return self.out("symbolic-ref", "--short", "HEAD")

    def has_commits(self) -> bool:
        return self.ok("rev-parse", "--verify", "--quiet", "HEAD")

    def head(self) -> str:
        return self.out("rev-parse", "HEAD") if self.has_commits() else ""

    def remote_url(self, name: str = "origin") -> str:
        result = self.run("remote", "get-url", name, check=False)
        return result.stdout.strip() if result.returncode == 0 else ""

    def remote_branch_exists(self, branch: str, remote: str = "origin") -> bool:
        return self.ok("rev-parse", "--verify", "--quiet", f"refs/remotes/{remote}/{branch}")

    def remote_default_branch(self, remote: str = "origin") -> str:
        """The fetched branch to start from: the one the remote's HEAD names,
        else ours, main or master by that name, else any ("" for an empty remote)."""
        result = self.run("ls-remote", "--symref", remote, "HEAD", check=False,
                          timeout=NETWORK_TIMEOUT)  # fmt: skip
        named = [
            line.split()[1].removeprefix("refs/heads/")
            for line in result.stdout.splitlines()
            if line.startswith("ref:") and line.endswith("\tHEAD")
        ]
        fetched = self.out(
            "for-each-ref", "--format=%(refname:strip=3)", f"refs/remotes/{remote}"
        ).splitlines()
        local = self.run("symbolic-ref", "--short", "HEAD", check=False).stdout.strip()
        for candidate in (*named, local, "main", "master"):
            if candidate and candidate in fetched:
                return candidate
        return next((name for name in fetched if name != "HEAD"), "")

    def ahead_behind(self, branch: str, remote: str = "origin") -> tuple[int, int]:
        if not self.remote_branch_exists(branch, remote):
            return (self.commit_count(), 0)
        counts = self.out("rev-list", "--left-right", "--count", f"HEAD...{remote}/{branch}")
        ahead, behind = counts.split()
        return int(ahead), int(behind)

    def commit_count(self) -> int:
        return int(self.out("rev-list", "--count", "HEAD")) if self.has_commits() else 0

    def dirty_paths(self) -> list[str]:
        """Paths with uncommitted changes (ignored files left out)."""
        lines = self.run("status", "--porcelain", "-z", "--untracked-files=all").stdout
        entries = [entry for entry in lines.split("\0") if entry]
        paths: list[str] = []
        skip_next = False
        for entry in entries:
            if skip_next:  # the source path of a rename
                skip_next = False
                continue
            paths.append(entry[3:])
            skip_next = entry[0] in "RC"
        return paths

    def changed_between(self, old: str, new: str) -> list[str]:
        if not old or old == new:
            return [] if old else self.out("ls-files").splitlines()
        return self.out("diff", "--name-only", "--no-renames", old, new).splitlines()

    def unmerged_paths(self) -> list[str]:
        return self.out("diff", "--name-only", "--diff-filter=U").splitlines()

    def files_with_markers(self) -> list[str]:
        """Tracked Markdown files holding conflict markers."""
        result = self.run("grep", "-l", "-E", "^<{7}( |$)", "--", "*.md", check=False)
        return result.stdout.splitlines() if result.returncode == 0 else []

    def operation_in_progress(self) -> str:
        """ "rebase" or "merge" when one was left unfinished, else ""."""
        git_dir = Path(self.out("rev-parse", "--absolute-git-dir"))
        if (git_dir / "rebase-merge").exists() or (git_dir / "rebase-apply").exists():
            return "rebase"
        return "merge" if (git_dir / "MERGE_HEAD").exists() else ""
