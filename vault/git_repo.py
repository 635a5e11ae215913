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
# A rebase or merge runs our merge driver once per file both sides changed, so it
# grows with what came in; killing one that is getting on leaves the next sync the
# same work and more. Bounded still, for a driver that hangs (the sync lock waits).
INTEGRATE_TIMEOUT = 900.0


class GitError(VaultError):
    """A git command failed; the message carries git's own words."""


class RemoteError(GitError):
    """The remote could not be reached, or refused us (fetch, push, ls-remote)."""


class Git:
    def __init__(self, root: Path, environ: Mapping[str, str] | None = None) -> None:
        self.root = root
        base = dict(os.environ if environ is None else environ)
        # Never wait for a password prompt (the daemon has no terminal); parseable English.
        base.update(GIT_TERMINAL_PROMPT="0", LC_ALL="C", LANGUAGE="C", GIT_EDITOR="true")
        self.env = base

    def run(
        self, *args: str, check: bool = True, timeout: float = LOCAL_TIMEOUT, stdin: str = ""
    ) -> subprocess.CompletedProcess[str]:
        try:
            result = subprocess.run(
                ["git", *args],
                cwd=self.root,
                env=self.env,
                input=stdin,
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

    def ok(self, *args: str, timeout: float = LOCAL_TIMEOUT) -> bool:
        return self.run(*args, check=False, timeout=timeout).returncode == 0

    def remote(self, *args: str) -> subprocess.CompletedProcess[str]:
        """A command that talks to `origin`; RemoteError in one line when it fails."""
        result = self.run(*args, check=False, timeout=NETWORK_TIMEOUT)
        if result.returncode != 0:
            raise self.remote_failure(args[0], result.stderr)
        return result

    def remote_failure(self, command: str, stderr: str) -> RemoteError:
        words = [line.strip() for line in stderr.splitlines() if line.strip()]
        why = next((w for w in words if w.lower().startswith(("fatal", "error"))), "")
        return RemoteError(
            f"git {command} with the remote {self.remote_url() or 'origin'} failed: "
            f"{(why or ' '.join(words) or 'no reason given')[:300]}; check the address "
            "(`vault sync init REMOTE` sets it) and the network"
        )

    def stage(self, paths: list[str]) -> None:
        """`git add` exactly these paths (added, changed or deleted)."""
        self._on_paths(paths, "add", "--all")

    def unstage(self, paths: list[str]) -> None:
        if self.has_commits():
            self._on_paths(paths, "reset", "--quiet")

    def unstage_tracked(self, paths: list[str]) -> None:
        """Stop tracking these files (the next commit deletes them there), keeping them here."""
        self._on_paths(paths, "rm", "--cached", "--quiet", "--ignore-unmatch")

    def _on_paths(self, paths: list[str], *command: str) -> None:
        """Run `command` on exactly these paths, names taken literally (no globs)."""
        if paths:
            self.run("--literal-pathspecs", *command, "--pathspec-from-file=-",
                     "--pathspec-file-nul", stdin="\0".join(paths))  # fmt: skip

    def committed_texts(self, paths: list[str], rev: str = "HEAD") -> dict[str, str]:
        """The text of each path at `rev` that has one (a new file has none), in one call."""
        if not paths or not self.has_commits():
            return {}
        request = "".join(f"{rev}:{path}\n" for path in paths).encode()
        listing = subprocess.run(["git", "cat-file", "--batch"], cwd=self.root, env=self.env,
                                 input=request, capture_output=True, check=True,
                                 timeout=LOCAL_TIMEOUT).stdout  # fmt: skip
        texts: dict[str, str] = {}
        position = 0
        for path in paths:
            header_end = listing.index(b"\n", position)
            header = listing[position:header_end].split()
            position = header_end + 1
            if len(header) == 3 and header[1] == b"blob":
                size = int(header[2])
                texts[path] = listing[position : position + size].decode("utf-8", "replace")
                position += size + 1
        return texts

    def git_dir(self) -> Path:
        return Path(self.out("rev-parse", "--absolute-git-dir"))

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
        """Paths with uncommitted changes, staged or not (ignored files left out)."""
        lines = self.run(
            "status", "--porcelain", "-z", "--untracked-files=all", "--no-renames"
        ).stdout
        return [entry[3:] for entry in lines.split("\0") if entry]

    def staged_paths(self) -> list[str]:
        listed = self.run("diff", "--cached", "--name-only", "--no-renames", "-z").stdout
        return [path for path in listed.split("\0") if path]

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
        git_dir = self.git_dir()
        if (git_dir / "rebase-merge").exists() or (git_dir / "rebase-apply").exists():
            return "rebase"
        return "merge" if (git_dir / "MERGE_HEAD").exists() else ""
