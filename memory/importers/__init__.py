"""Imports from other memory systems and the JSONL export: one module per format,
all writing through memory/importers/core.py."""
