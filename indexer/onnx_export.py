"""The bundled model as an ONNX Runtime graph, made once by the maintained tools
and cached: torch's ONNX exporter writes the transformer, ONNX Runtime's
transformer optimizer fuses it (SkipLayerNormalization, BiasGelu), and the result
is kept in the user's cache folder under a hash of the model's files.

The export runs in a child process (`python -m indexer.onnx_export`), so the
process that asked for it never imports torch and never holds its memory; a
file lock lets one process export while the others wait for its result.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

from indexer.errors import ModelUnavailableError
from vault.atomic import atomic_write, file_lock, fsync_path

# Part of the cache key: a change to how the graph is made gives a new file.
RECIPE = "torchscript-opset17-ort-bert-optimizer-1"
EXPORT_TIMEOUT = 600  # seconds; the first export takes ~10-30 s of CPU
_HASHES = "hashes.json"


def exported_model(model_dir: Path, cache_dir: Path) -> Path:
    """The optimized ONNX graph of the model in `model_dir`, exported first if no
    cached copy exists (another process exporting it is waited for)."""
    target = cache_dir / f"{model_dir.name}-{model_key(model_dir, cache_dir)}.onnx"
    if target.is_file():
        return target
    with file_lock(cache_dir / ".export.lock"):
        if not target.is_file():
            _export_in_child(model_dir, target)
    return target


def model_key(model_dir: Path, cache_dir: Path) -> str:
    """A hash of the model's weights and config, the ONNX Runtime version and the
    recipe. The weights' digest is remembered by path, size and mtime, so a start
    does not read ~90 MB again."""
    import onnxruntime  # type: ignore[import-untyped]

    digest = hashlib.sha256()
    digest.update(RECIPE.encode())
    digest.update(str(onnxruntime.__version__).encode())
    digest.update((model_dir / "config.json").read_bytes())
    digest.update(_weights_digest(model_dir / "model.safetensors", cache_dir).encode())
    return digest.hexdigest()[:16]


def _weights_digest(weights: Path, cache_dir: Path) -> str:
    stat = weights.stat()
    stamp = f"{weights.resolve()}:{stat.st_size}:{stat.st_mtime_ns}"
    known_path = cache_dir / _HASHES
    try:
        known = json.loads(known_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        known = {}
    if not isinstance(known, dict):
        known = {}
    if isinstance(known.get(stamp), str):
        return str(known[stamp])
    digest = hashlib.sha256()
    with open(weights, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    known[stamp] = digest.hexdigest()
    cache_dir.mkdir(parents=True, exist_ok=True)
    atomic_write(known_path, json.dumps(known, indent=1).encode())
    return str(known[stamp])


def _export_in_child(model_dir: Path, target: Path) -> None:
    command = [sys.executable, "-m", "indexer.onnx_export", str(model_dir), str(target)]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "ORT_DISABLE_TELEMETRY": "1"}
    try:
        result = subprocess.run(
            command, capture_output=True, text=True, env=env, timeout=EXPORT_TIMEOUT
        )
    except subprocess.TimeoutExpired as exc:
        raise ModelUnavailableError(f"exporting {model_dir.name} to ONNX timed out") from exc
    if result.returncode != 0 or not target.is_file():
        last = (result.stderr.strip().splitlines() or ["no output"])[-1]
        raise ModelUnavailableError(f"cannot export {model_dir.name} to ONNX: {last}")


def export(model_dir: Path, target: Path) -> None:
    """Export and optimize (in this process: torch, transformers and onnx load here)."""
    import warnings

    import torch
    from onnxruntime.transformers.optimizer import optimize_model  # type: ignore[import-untyped]
    from transformers import AutoConfig, AutoModel

    config = AutoConfig.from_pretrained(model_dir)
    # eager attention: the plain pattern ONNX Runtime's fusions know
    model = AutoModel.from_pretrained(model_dir, attn_implementation="eager").eval()

    class LastHiddenState(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
            out: torch.Tensor = self.model(
                input_ids=input_ids, attention_mask=attention_mask
            ).last_hidden_state
            return out

    sample = torch.ones((1, 8), dtype=torch.long)
    axes = {0: "batch", 1: "tokens"}
    raw = target.with_name(f".raw-{os.getpid()}-{target.name}")
    optimized = target.with_name(f".opt-{os.getpid()}-{target.name}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.onnx.export(
                LastHiddenState(),
                (sample, sample),
                str(raw),
                input_names=["input_ids", "attention_mask"],
                output_names=["hidden"],
                dynamic_axes={"input_ids": axes, "attention_mask": axes, "hidden": axes},
                opset_version=17,
                dynamo=False,
            )
            fused = optimize_model(
                str(raw),
                model_type="bert",
                num_heads=config.num_attention_heads,
                hidden_size=config.hidden_size,
            )
        fused.save_model_to_file(str(optimized))
        fsync_path(optimized)
        os.replace(optimized, target)
        fsync_path(target.parent)
    finally:
        raw.unlink(missing_ok=True)
        optimized.unlink(missing_ok=True)


if __name__ == "__main__":
    export(Path(sys.argv[1]), Path(sys.argv[2]))
