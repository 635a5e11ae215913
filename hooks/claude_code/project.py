"""Project identity from a working directory. Standard library only.

The normalised `origin` URL of the git repository (github.com/acme/api), else
the path of its git common directory's parent, so subfolders and worktrees of
one repository are one project; "" outside any repository.
"""

from __future__ import annotations

import configparser
import re
from pathlib import Path


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
    if not cwd:
        return ""
    common = git_common_dir(Path(cwd))
    if common is None:
        return ""
    config = configparser.ConfigParser(strict=False, interpolation=None)
    try:
        config.read(common / "config", encoding="utf-8")
        url = config.get('remote "origin"', "url", fallback="")
    except (configparser.Error, OSError):
        url = ""
    return normalise_remote(url) if url else str(common.parent)
