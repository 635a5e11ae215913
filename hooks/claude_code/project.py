"""Project identity from a working directory. Standard library only.

`project_override` when set; else the normalised `origin` URL of the git
repository (github.com/acme/api), else its common git folder's parent, so
subfolders and worktrees are one project; "" outside a repository."""

from __future__ import annotations

import configparser
import re
from pathlib import Path

MAX_NAME_BYTES = 255  # NAME_MAX: a longer path part cannot exist on Linux or macOS


def fits(path: str) -> bool:
    """Whether every part of `path` could be a file name (at most 255 bytes)."""
    return all(len(part.encode("utf-8", "replace")) <= MAX_NAME_BYTES for part in path.split("/"))


def project_for(override: str, cwd: str | Path | None) -> str:
    """The project of a hook's working directory: the override wins over git."""
    return override or project_identity(cwd)


def git_common_dir(start: Path) -> Path | None:
    for folder in (start, *start.parents):
        dot_git = folder / ".git"
        if dot_git.is_dir():
            return dot_git
        if dot_git.is_file():  # a worktree: "gitdir: <main>/.git/worktrees/<name>"
            text = dot_git.read_text(errors="replace").strip()
            if text.startswith("gitdir:"):
                gitdir = (folder / text.split(":", 1)[1].strip()).resolve()
                common = gitdir / "commondir"
                if common.is_file():
                    return (gitdir / common.read_text().strip()).resolve()
                return gitdir
    return None


def normalise_remote(url: str) -> str:
    """git@github.com:acme/api.git, https://user@github.com/acme/api -> github.com/acme/api"""
    url = url.strip()
    url = re.sub(r"^[a-z+]+://", "", url)
    url = re.sub(r"^[^@/]+@", "", url)
    url = re.sub(r"^([^/:]+):(?!\d+/)", r"\1/", url)
    url = re.sub(r":\d+/", "/", url)
    return url.removesuffix(".git").rstrip("/").lower()


def project_identity(cwd: str | Path | None) -> str:
    if not cwd or not fits(str(cwd)):
        return ""
    try:
        common = git_common_dir(Path(cwd))
    except (OSError, UnicodeDecodeError):  # unreadable .git file, a path the system refuses
        return ""
    if common is None:
        return ""
    config = configparser.ConfigParser(strict=False, interpolation=None)
    try:
        config.read(common / "config", encoding="utf-8")
        url = config.get('remote "origin"', "url", fallback="")
    except (configparser.Error, OSError):
        url = ""
    return normalise_remote(url) if url else str(common.parent)
