"""The `vault` command: the click group in main.py, one module per theme."""
