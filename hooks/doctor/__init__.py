"""`vault doctor`: checks of an install, one module per group (package and model,
Claude Code wiring, daemon, vault and index, git sync); each check says what it
found and, for a problem, the fix. Checks report; only the daemon check acts."""
