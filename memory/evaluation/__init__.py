"""Evaluation: the harnesses behind `vault bench retrieval` (metrics, the rank
path and the hook path).
"""
