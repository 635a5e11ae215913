"""Encoding: what enters the vault and how. Capture from transcripts (turns, redaction,
statements, the durable judgement), jot and ingest, filing and links.
"""
