"""What the packaging tests share, made once per test session however many xdist
workers ask (a file lock in the session's shared temp root): the sdist and wheel from
`python -m build`, a wheelhouse that `pip download` fills with their dependencies
(the CPU build of torch: this machine's pip knows where it is), and the wheel
installed by `uv tool install` from that wheelhouse, offline."""

from __future__ import annotations

import fcntl
import os
import pwd
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEV_BIN = Path(sys.executable).parent  # uv, pipx and build come with the dev group
BASE_PYTHON = getattr(sys, "_base_executable", sys.executable)  # not this venv's
TORCH = "torch==2.13.0"
TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"
# uv's cache outlives the session like a person's does (the autouse fixture moves HOME)
UV_CACHE = Path(pwd.getpwuid(os.getuid()).pw_dir) / ".cache" / "uv"


@dataclass(frozen=True)
class Built:
    sdist: Path
    wheel: Path
    wheelhouse: Path


def run(*command: str | Path, **env: str) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([str(part) for part in command], capture_output=True, text=True,
                            timeout=900, env={**os.environ, **env})  # fmt: skip
    assert result.returncode == 0, (command, result.stdout[-2000:], result.stderr[-2000:])
    return result


def once(shared: Path, name: str, make: Callable[[Path], None]) -> Path:
    """`shared/name`, made by the first caller of the session (the others wait)."""
    folder = shared / name
    shared.mkdir(parents=True, exist_ok=True)
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / ".done").exists():
            folder.mkdir(exist_ok=True)
            make(folder)
            (folder / ".done").touch()
    return folder


def build_dists(out: Path) -> None:
    """`python -m build`: the sdist, then the wheel built from it."""
    run(sys.executable, "-m", "build", "--outdir", out / "dist", ROOT)
    wheel = next((out / "dist").glob("*.whl"))
    # --retries 0: where the CPU index is out of reach, pip's own sources answer at once
    run(sys.executable, "-m", "pip", "download", "--quiet", "--retries", "0",
        "--dest", out / "wheelhouse", "--extra-index-url", TORCH_CPU_INDEX,
        wheel, TORCH, "setuptools>=68")  # fmt: skip


def built(shared: Path) -> Built:
    folder = once(shared, "built", build_dists)
    return Built(
        sdist=next((folder / "dist").glob("*.tar.gz")),
        wheel=next((folder / "dist").glob("*.whl")),
        wheelhouse=folder / "wheelhouse",
    )


def uv_env(tools: Path) -> dict[str, str]:
    return {"UV_TOOL_DIR": str(tools / "tools"), "UV_TOOL_BIN_DIR": str(tools / "bin"),
            "UV_CACHE_DIR": str(UV_CACHE), "UV_PYTHON": BASE_PYTHON,
            "UV_PYTHON_DOWNLOADS": "never"}  # fmt: skip


def uv_tool(shared: Path, dists: Built) -> Path:
    """The wheel installed with `uv tool install`, as the README says (offline here:
    `--no-index --find-links` the wheelhouse); returns the folder `vault` is in."""

    def install(tools: Path) -> None:
        run(DEV_BIN / "uv", "tool", "install", "--torch-backend", "cpu", "--no-index",
            "--find-links", dists.wheelhouse, dists.wheel, **uv_env(tools))  # fmt: skip

    return once(shared, "uv-tool", install) / "bin"


def shared_root(base: Path) -> Path:
    """The session's temp root seen by every xdist worker (a worker's is below it)."""
    return base.parent if base.name.startswith("popen-gw") else base
