"""`python -P -m hooks.cli.merge_driver BASE CURRENT OTHER [NAME]`: the git merge
driver for memory files as `vault sync` registers it. Git starts one process per
file both sides changed, during a rebase that holds the sync lock, so this
entry imports only vault.merge_driver (about a tenth of the full `vault`
command's start). `vault merge-driver` does the same through click.
"""

from __future__ import annotations

import sys
from pathlib import Path

from vault.merge_driver import merge_file

USAGE = "usage: python -m hooks.cli.merge_driver BASE CURRENT OTHER [NAME]"


def main(argv: list[str]) -> int:
    """0 when merged cleanly; 1 when a real conflict is left with markers (or
    the files cannot be read), as git expects of a merge driver; 2 on bad use."""
    if len(argv) not in (3, 4):
        print(USAGE, file=sys.stderr)
        return 2
    base, current, other = (Path(arg) for arg in argv[:3])
    name = argv[3] if len(argv) == 4 else "memory"
    try:
        merged = merge_file(base, current, other, name)
    except OSError as error:
        print(f"memory-vault: cannot merge {name}: {error}", file=sys.stderr)
        return 1
    if not merged:
        print(f"memory-vault: a real conflict in {name} is left with markers", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
