"""The memory model: encode, decay, reinforce, recall tiers, consolidate, forget.

`MemoryService` is the API every adapter (CLI, hooks, MCP, daemon) calls; the
pure functions in `decay` and `recall_tiers` take plain values and a `now`.
"""
