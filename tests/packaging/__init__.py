"""The built package: its files, and every install path run from the wheel."""
