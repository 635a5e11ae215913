"""`python -m hooks.daemon --vault DIR [--idle S] [--then REQUEST]`: the daemon
without the CLI. Hooks start the daemon this way: it skips click and the command
modules, so the socket is bound sooner; `--then` is a JSON request (a capture, a
sweep) to do once warm. `vault serve` runs the same `server.run`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hooks.daemon")
    parser.add_argument("--vault", required=True, metavar="DIR")
    parser.add_argument("--idle", type=float, default=None, metavar="SECONDS")
    parser.add_argument("--then", type=json.loads, default=None, metavar="REQUEST")
    args = parser.parse_args(argv)
    from hooks.daemon.server import run
    from vault.config import load_settings
    from vault.layout import Vault
    from vault.paths import resolve_vault_home

    vault = Vault(resolve_vault_home(args.vault, os.environ))  # as `vault --vault DIR` does
    if not vault.exists():
        print(f"no vault at {vault.root}; run `vault init` first", file=sys.stderr)
        return 1
    first = args.then if isinstance(args.then, dict) else None
    return run(vault, load_settings(vault.config_path, os.environ), args.idle, first)


if __name__ == "__main__":
    sys.exit(main())
