"""`python -m hooks.cli`: the `vault` command (the detached runner starts it this way)."""

from hooks.cli.main import main

main()
