# The two commands a newcomer needs:  `make demo`  and  `make check`.
# Both create the project's own virtual environment (.venv) and install into it.
# torch is pinned first so pip takes the CPU build instead of a multi-GB CUDA one.
# The editable install uses a plain .pth path (compat mode): its import-hook finder
# would add ~10 ms to every Python start, and hooks start a process per prompt.

VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
export HF_HUB_OFFLINE := 1

INSPECTOR := .tools/node_modules/.bin/mcp-inspector
CLAUDE    := .tools/node_modules/.bin/claude

.PHONY: install tools demo check test lint bench mutation

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade "pip>=25.1"
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -e . --group dev --config-settings editable_mode=compat
	touch $(STAMP)

install: $(STAMP)

# The MCP Inspector CLI (npm), used by the tests to drive `vault mcp` as a real client.
$(INSPECTOR):
	npm install --prefix .tools --no-audit --no-fund --silent @modelcontextprotocol/inspector@2.3.0

# The real Claude Code CLI (npm), pinned: the tests run `claude -p` against a local
# stand-in for the Messages API (tests/claude_code/stub_api.py); nothing leaves the machine.
$(CLAUDE):
	npm install --prefix .tools --no-audit --no-fund --silent @anthropic-ai/claude-code@2.1.328

tools: $(INSPECTOR) $(CLAUDE)

demo: $(STAMP)
	$(VENV)/bin/vault demo

lint: $(STAMP)
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy vault indexer memory hooks

test: $(STAMP) $(INSPECTOR) $(CLAUDE)
	$(VENV)/bin/pytest -q

check: lint test

bench: $(STAMP)
	$(PY) -m benchmarks.index_bench

# Mutation testing (cosmic-ray) over the modules that guard data, privacy and the
# session: kill rate per group against its target, and every survivor. Not part of
# `make check` (it runs the covering tests once per mutant: tens of minutes).
mutation: $(STAMP) $(CLAUDE)
	$(PY) tools/mutation.py
