"""The files: layout, frontmatter, atomic writes and locks, config and paths, clock.

This package imports nothing else of memory-vault.
"""
