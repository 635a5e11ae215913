"""The vault's folders, and where a memory's file lives.

memories/ holds active memories (subfolders allowed), archive/ the cold ones in
the same format. .index/ is disposable; .state/ is small bookkeeping. A
symbolic link is listed (so it can be reported) but never located for use.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from vault.errors import BrokenFileError, InvalidIdError, MemoryNotFoundError
from vault.ids import validate_id

TYPE_CHECKING = False  # not typing's: the prompt hook loads this module
if TYPE_CHECKING:
    from vault.config import Settings

MEMORIES = "memories"
ARCHIVE = "archive"
SUFFIX = ".md"
LOCK_STRIPES = 256


NOTE_LEVELS = ("daily", "weekly", "monthly", "quarterly", "yearly")
# Where each level's notes go unless the settings say otherwise (`<level>_folder`).
DEFAULT_NOTE_FOLDERS = ("daily", "periodic/weekly", "periodic/monthly", "periodic/quarterly",
                        "periodic/yearly")  # fmt: skip


@dataclass(frozen=True)
class Vault:
    root: Path
    # vault-relative folders of the daily, weekly, monthly, quarterly and yearly
    # notes, checked by the settings (vault/setting_types.py: inside the vault)
    note_folders: tuple[str, ...] = DEFAULT_NOTE_FOLDERS

    def configured(self, settings: Settings) -> Vault:
        """This vault with the note folders `settings` name."""
        folders = tuple(str(settings.value(f"{level}_folder")) for level in NOTE_LEVELS)
        return self if folders == self.note_folders else replace(self, note_folders=folders)

    def note_dir(self, level: str) -> Path:
        """The folder of `level`'s notes (daily, weekly, monthly, quarterly, yearly)."""
        return self.root / self.note_folders[NOTE_LEVELS.index(level)]

    @property
    def memories_dir(self) -> Path:
        return self.root / MEMORIES

    @property
    def archive_dir(self) -> Path:
        return self.root / ARCHIVE

    @property
    def daily_dir(self) -> Path:
        return self.note_dir("daily")

    @property
    def index_dir(self) -> Path:
        return self.root / ".index"

    @property
    def state_dir(self) -> Path:
        return self.root / ".state"

    @property
    def config_path(self) -> Path:
        return self.root / "config.toml"

    def exists(self) -> bool:
        return self.memories_dir.is_dir()

    def create_folders(self) -> None:
        for folder in (
            self.memories_dir,
            self.archive_dir,
            *(self.note_dir(level) for level in NOTE_LEVELS),
            self.index_dir,
            self.state_dir,
        ):
            folder.mkdir(parents=True, exist_ok=True)
        private_folder(self.index_dir)
        private_folder(self.state_dir)

    def lock_path(self, memory_id: str) -> Path:
        """The lock file guarding read-modify-write of one memory (striped)."""
        stripe = sum(memory_id.encode()) * 2654435761 % LOCK_STRIPES
        return self.index_dir / "locks" / f"memory-{stripe:03d}.lock"

    def new_memory_path(self, memory_id: str) -> Path:
        return self.memories_dir / f"{validate_id(memory_id)}{SUFFIX}"

    def is_archived(self, path: Path) -> bool:
        return self.archive_dir in path.parents

    def counterpart(self, path: Path) -> Path:
        """The same relative place on the other side (memories/ <-> archive/)."""
        if self.is_archived(path):
            return self.memories_dir / path.relative_to(self.archive_dir)
        return self.archive_dir / path.relative_to(self.memories_dir)

    def relative(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    def locate(self, memory_id: str, hint: Path | None = None) -> Path:
        """The file of `memory_id`, active or archived."""
        validate_id(memory_id)
        name = f"{memory_id}{SUFFIX}"
        candidates = [self.memories_dir / name, self.archive_dir / name]
        if hint is not None and hint.name == name:
            candidates.insert(0, hint)
        for path in candidates:
            if path.is_symlink():
                raise symlink_refused(path)
            if path.is_file():
                return path
        for folder in (self.memories_dir, self.archive_dir):
            for path in self._walk(folder):
                if path.name == name:
                    if path.is_symlink():
                        raise symlink_refused(path)
                    return path
        raise MemoryNotFoundError(f"no memory with id {memory_id!r} in {self.root}")

    def memory_files(self, archived: bool | None = None) -> Iterator[Path]:
        """Every memory file (symbolic links too, never followed into folders);
        `archived` None means both sides."""
        if archived in (None, False):
            yield from self._walk(self.memories_dir)
        if archived in (None, True):
            yield from self._walk(self.archive_dir)

    @staticmethod
    def _walk(folder: Path) -> Iterator[Path]:
        stack = [folder]
        while stack:
            current = stack.pop()
            try:
                entries = list(os.scandir(current))
            except FileNotFoundError:
                continue
            for entry in entries:
                if entry.name.startswith("."):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    stack.append(Path(entry.path))
                elif entry.name.endswith(SUFFIX) and (
                    entry.is_file(follow_symlinks=False) or entry.is_symlink()
                ):
                    yield Path(entry.path)


def symlink_refused(path: Path) -> BrokenFileError:
    """The error for a symbolic link where a memory file should be."""
    try:
        target = f" to {os.readlink(path)}"
    except OSError:
        target = ""
    return BrokenFileError(
        path,
        f"a symbolic link{target}; memory-vault never follows links in the vault",
        "put the file itself there instead",
    )


def inside(root: Path, path: Path) -> Path:
    """`path` resolved, refusing anything that leaves `root`."""
    resolved = path.resolve()
    if resolved != root.resolve() and root.resolve() not in resolved.parents:
        raise InvalidIdError(f"{path} is outside the vault {root}")
    return resolved


def private_folder(folder: Path) -> Path:
    """`folder`, created if missing, readable by the owner only (0700): the index
    and state hold the memories' words, whoever rebuilds them and whatever the umask."""
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    return folder
