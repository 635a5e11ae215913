"""Claude Code's side: the `vault-hook EVENT` entry point and its handlers,
transcript capture, project identity, the config folder and the installer."""
