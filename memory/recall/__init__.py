"""Recall: ranking by similarity x strength, the confident and activated tiers,
spreading activation and the keyword path the hook uses without a daemon.
"""
