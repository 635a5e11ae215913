"""Where a daemon's start goes, phase by phase, in CPU and wall time: the ONNX
Runtime encoder the daemon uses (first with an empty model cache, the one-time
export by torch's exporter and ONNX Runtime's optimizer; then from the cache) and
sentence-transformers (what it loaded before).

    .venv/bin/python -m benchmarks.daemon_start_bench [--rounds 2]

Each round runs them in fresh interpreters on a one-memory vault. CPU seconds are
the figure to compare on a busy machine; wall time follows the load (the export
runs in a child process, whose CPU shows as wall time here).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

PHASES = """
import resource, sys, time
def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
marks, start = [], (cpu(), time.perf_counter())
def mark(name):
    marks.append((name, cpu(), time.perf_counter()))
from pathlib import Path
from hooks.daemon import server
mark("import the daemon (memory, indexer, watchdog, yaml)")
from indexer.index import VaultIndex
from vault.config import load_settings
from vault.layout import Vault
vault = Vault(Path(sys.argv[1]))
if sys.argv[2] == "onnx":
    import numpy, onnxruntime, tokenizers
    from indexer.embedder import bundled_encoder
    mark("import numpy, onnxruntime, tokenizers")
    encoder = bundled_encoder()
    encoder.load()
    mark("load the model (export if not cached, session, tokenizer)")
else:
    import sentence_transformers, torch
    from indexer.embedder import SentenceTransformerEmbedder
    mark("import torch and sentence-transformers (transformers, sklearn, scipy)")
    encoder = SentenceTransformerEmbedder()
    encoder._load()
    mark("load the model (weights, tokenizer)")
encoder.encode(["warm up"])
mark("first encode")
index = VaultIndex(vault, load_settings(vault.config_path, {}), embedder=encoder)
index.sync()
mark("open the catalog and sync (no change)")
index.search("warm up", k=1)
mark("first search (FAISS, FTS5)")
previous = start
for name, spent, wall in marks:
    print(f"  cpu {spent - previous[0]:6.2f} s  wall {wall - previous[1]:6.2f} s  {name}")
    previous = (spent, wall)
print(f"  cpu {previous[0] - start[0]:6.2f} s  wall {previous[1] - start[1]:6.2f} s  in all")
rss = open("/proc/self/status").read().split("VmRSS:")[1].split()[0]
print(f"  resident: {int(rss) // 1024} MB")
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    from memory.service import MemoryService
    from vault.layout import Vault

    with tempfile.TemporaryDirectory() as tmp:
        vault = Vault(Path(tmp) / "vault")
        MemoryService.init_vault(vault)
        (vault.memories_dir / "one.md").write_text("---\nid: one\n---\nPrefer pytest fixtures.\n")
        cache = Path(tmp) / "model-cache"
        env = {**os.environ, "HF_HUB_OFFLINE": "1", "VAULT_MODEL_CACHE": str(cache)}
        runs = [("onnx, first start (empty model cache)", "onnx")]
        runs += [("onnx", "onnx"), ("sentence-transformers", "st")] * args.rounds
        for title, encoder in runs:
            print(f"{title}:")
            subprocess.run([sys.executable, "-c", PHASES, str(vault.root), encoder],
                           env=env, check=True)  # fmt: skip


if __name__ == "__main__":
    main()
