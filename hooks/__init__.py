"""Every way in from outside, one sub-package per role: claude_code/ (the hooks
Claude Code runs, capture, the installer), daemon/ (the warm server and its
stdlib client), cli/ (the `vault` command) and mcp/ (the MCP server).
"""

import os

# macOS: Accelerate's own thread pool beside FAISS's and ONNX Runtime's can hang or
# crash a process that forks; one thread for it, set before numpy loads (every way
# in imports this package first). No effect on Linux; an explicit value is kept.
os.environ.setdefault("VECLIB_MAXIMUM_THREADS", "1")
