"""The agents `vault install --agent NAME` knows, by name."""

from __future__ import annotations

from hooks.agents import codex, cursor, gemini, opencode
from hooks.agents.installer import Agent

AGENTS: dict[str, Agent] = {module.NAME: module for module in (codex, cursor, gemini, opencode)}
