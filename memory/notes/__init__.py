"""Notes: daily and periodic notes, their synthesis, the SessionStart briefing
and CCL, the context compression language.
"""
