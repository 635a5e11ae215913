"""What `vault sync` commits: memories (active and archived), daily and
periodic notes, config.toml, and sync's own .gitignore, .gitattributes and
purge list. Never a private memory (under memories/private/ or
archive/private/, or with `private: true`), a cloud-sync conflict copy (the
rule the index refuses them by, vault/conflicts.py), git's leftover merge
files, nor anything else dropped in the vault; a deletion is always committed.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from vault import frontmatter
from vault.conflicts import conflict_copy_of
from vault.layout import ARCHIVE, DEFAULT_NOTE_FOLDERS, MEMORIES, SUFFIX
from vault.tombstones import TOMBSTONES

OWN_FILES = ("config.toml", ".gitignore", ".gitattributes", TOMBSTONES)
NOTE_FOLDERS = (f"{MEMORIES}/", f"{ARCHIVE}/", "daily/", "periodic/")  # and the settings' folders
PRIVATE = "private"  # memories/private/ and archive/private/: this machine only
PRIVATE_FOLDERS = (f"{MEMORIES}/{PRIVATE}/", f"{ARCHIVE}/{PRIVATE}/")
READ_LIMIT = 64 * 1024  # enough of a file to find its frontmatter id


def committable(
    root: Path, path: str, note_folders: tuple[str, ...] = DEFAULT_NOTE_FOLDERS
) -> bool:
    """Whether sync may commit `path` (relative to the vault root) as it is now;
    `note_folders`: where the vault's daily and periodic notes are (the settings')."""
    parts = PurePosixPath(path).parts
    if len(parts) == 1:
        return path in OWN_FILES
    folders = (*NOTE_FOLDERS, *(folder.strip("/") + "/" for folder in note_folders))
    if not path.startswith(folders) or not path.endswith(SUFFIX):
        return False
    if any(part.startswith(".") for part in parts):
        return False
    full = root / path
    if full.is_symlink() or not full.is_file() or path.startswith(PRIVATE_FOLDERS):
        return False
    meta = read_meta(full)
    return meta.get(PRIVATE) is not True and conflict_copy_of(full, meta) is None


def is_private(root: Path, path: str) -> bool:
    """A memory kept on this machine: in a private folder, or marked `private: true`."""
    if path.startswith(PRIVATE_FOLDERS):
        return True
    full = root / path
    is_memory = path.startswith((f"{MEMORIES}/", f"{ARCHIVE}/")) and path.endswith(SUFFIX)
    return is_memory and full.is_file() and read_meta(full).get(PRIVATE) is True


def read_meta(path: Path) -> dict[str, object]:
    """The file's frontmatter, {} when it has none or it does not parse."""
    try:
        with path.open("rb") as handle:
            head = handle.read(READ_LIMIT).decode("utf-8", errors="replace")
        found = frontmatter.split(head)
        return frontmatter.parse(f"---\n{found[0]}---\n").meta if found else {}
    except (OSError, frontmatter.FrontmatterError):
        return {}


def split(
    root: Path, paths: list[str], note_folders: tuple[str, ...] = DEFAULT_NOTE_FOLDERS
) -> tuple[list[str], list[str], list[str]]:
    """(paths sync commits, private memories, other paths it leaves out); a
    vanished path is a deletion, committed."""
    kept: list[str] = []
    private: list[str] = []
    left: list[str] = []
    for path in paths:
        full = root / path
        gone = not full.exists() and not full.is_symlink()
        if gone or committable(root, path, note_folders):
            kept.append(path)
        else:
            (private if is_private(root, path) else left).append(path)
    return kept, private, left


def counterpart(path: str) -> str:
    """The same memory's path on the other side (memories/ <-> archive/)."""
    top, _, rest = path.partition("/")
    return f"{ARCHIVE if top == MEMORIES else MEMORIES}/{rest}"
