"""Shared by the plugin launchers: the plugin's own virtual environment.

Claude Code copies the plugin to a cache folder that changes on every update;
only ${CLAUDE_PLUGIN_DATA} survives, so the environment lives there: each build in
venvs/<version>, and `venv` a link to the one in use, switched only once a build
succeeded. The version is the package's plus a hash of every packaged file, so an
update that changes any of them rebuilds. The build runs detached (uv when it is on
PATH, else venv and pip), always with the CPU build of torch. Standard library only.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the plugin's own code: config_dir is standard library only
from hooks.claude_code.config_dir import claude_dir  # noqa: E402

MARKER = "vault-hook"
PACKAGES = ("vault", "indexer", "memory", "hooks")
PACKAGED_SUFFIXES = (".py", ".toml", ".npz", ".json")  # pyproject.toml's package-data too
TORCH = "torch==2.13.0"
TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"  # PyPI's Linux torch is the CUDA one
BUILD_GRACE_SECONDS = 1800  # a build marker older than this was left by a killed build
RETRY_SECONDS = 600  # after a failed build (offline?), hooks wait this long to try again
USUAL_BUILD_SECONDS = 240  # the estimate before this machine has built once


def data_dir() -> Path:
    configured = os.environ.get("CLAUDE_PLUGIN_DATA")
    base = (
        Path(configured)
        if configured
        else Path.home() / ".local" / "share" / "memory-vault" / "plugin"
    )
    return base.expanduser()


def venv_bin(name: str) -> Path:
    return data_dir() / "venv" / "bin" / name


def packaged_files(root: Path = ROOT) -> list[Path]:
    """pyproject.toml and every file the wheel takes from the four packages."""
    found = [root / "pyproject.toml"]
    for package in PACKAGES:
        found += sorted(
            path
            for path in (root / package).rglob("*")
            if path.suffix in PACKAGED_SUFFIXES and "__pycache__" not in path.parts
        )
    return found


def package_version(root: Path = ROOT) -> str:
    import tomllib

    with open(root / "pyproject.toml", "rb") as file:
        return str(tomllib.load(file)["project"]["version"])


def content_version(root: Path = ROOT) -> str:
    """The package version plus a hash of the packaged files (names and bytes)."""
    digest = hashlib.sha256()
    for path in packaged_files(root):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return f"{package_version(root)}+{digest.hexdigest()[:16]}"


def wanted_version() -> str:
    """`content_version` of this plugin copy, remembered by the files' names, sizes
    and mtimes: every hook runs this, and stat is ~20x cheaper than reading."""
    files = packaged_files()
    stats = [(str(path), path.stat()) for path in files]
    signature = hashlib.sha256(
        repr([(name, info.st_size, info.st_mtime_ns) for name, info in stats]).encode()
    ).hexdigest()
    cache = data_dir() / "wanted-version.json"
    try:
        cached = json.loads(cache.read_text())
    except (OSError, ValueError):
        cached = None  # none yet, or unreadable: computed again below
    if isinstance(cached, dict) and cached.get("signature") == signature:
        return str(cached.get("version"))
    version = content_version()
    with contextlib.suppress(OSError):
        data_dir().mkdir(parents=True, exist_ok=True)
        cache.write_text(json.dumps({"signature": signature, "version": version}))
    return version


def up_to_date() -> bool:
    stamp = data_dir() / "installed-version"
    return stamp.exists() and stamp.read_text().strip() == wanted_version()


def build_started() -> float | None:
    """When the running build started (None when none runs)."""
    try:
        started = (data_dir() / "bootstrapping").stat().st_mtime
    except FileNotFoundError:
        return None
    return started if time.time() - started < BUILD_GRACE_SECONDS else None


def bootstrap_in_background() -> None:
    """Start `build` detached; at most one at a time."""
    if build_started() is not None or _failed_recently():
        return
    data_dir().mkdir(parents=True, exist_ok=True)
    (data_dir() / "bootstrapping").touch()
    log = open(data_dir() / "bootstrap.log", "ab")  # noqa: SIM115 - handed to the child
    subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "build"],
                     stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                     start_new_session=True, close_fds=True)  # fmt: skip


def _failed_recently() -> bool:
    try:
        return time.time() - (data_dir() / "build-failed").stat().st_mtime < RETRY_SECONDS
    except FileNotFoundError:
        return False


def install_commands(target: Path) -> list[list[str]]:
    """The commands that build the environment at `target`: uv when it is on PATH
    (`--torch-backend cpu`), else venv and pip (torch first, from the CPU index
    on Linux, where PyPI's build is the multi-GB CUDA one)."""
    python = str(target / "bin" / "python")
    uv = shutil.which("uv")
    if uv is not None:
        return [[uv, "venv", "--quiet", "--python", sys.executable, str(target)],
                [uv, "pip", "install", "--quiet", "--python", python, "--torch-backend", "cpu",
                 str(ROOT)]]  # fmt: skip
    torch_index = ["--extra-index-url", TORCH_CPU_INDEX] if sys.platform == "linux" else []
    pip = [python, "-m", "pip", "install", "--quiet"]
    return [[sys.executable, "-m", "venv", str(target)], [*pip, "--upgrade", "pip"],
            [*pip, TORCH, *torch_index], [*pip, str(ROOT)]]  # fmt: skip


def build() -> int:
    """Build the wanted version's environment, then switch `venv` to it, create the
    vault when there is none, and record the version and how long it took."""
    data, version, began = data_dir(), wanted_version(), time.time()
    target = data / "venvs" / version
    try:
        shutil.rmtree(target, ignore_errors=True)  # a killed build's leftovers
        for command in install_commands(target):
            subprocess.run(command, check=True, stdin=subprocess.DEVNULL)
        link = data / "venv"
        if link.exists() and not link.is_symlink():  # a build from before venvs/
            shutil.rmtree(link)
        temporary = data / "venv.new"
        temporary.unlink(missing_ok=True)
        temporary.symlink_to(target.relative_to(data))
        os.replace(temporary, link)
        subprocess.run([str(target / "bin" / "vault"), "init"], stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, check=False)  # fmt: skip
        (data / "build-seconds").write_text(f"{time.time() - began:.0f}\n")
        (data / "installed-version").write_text(version + "\n")
        _remove_old_builds(data / "venvs", keep={target.name})
        (data / "build-failed").unlink(missing_ok=True)
        return 0
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"memory-vault: the environment build failed: {exc}", file=sys.stderr)
        (data / "build-failed").touch()
        return 1
    finally:
        (data / "bootstrapping").unlink(missing_ok=True)


def _remove_old_builds(folder: Path, keep: set[str]) -> None:
    """All but the newest build and the previous one (a daemon may still run from it)."""
    builds = sorted(folder.iterdir(), key=lambda path: path.stat().st_mtime, reverse=True)
    for old in [path for path in builds if path.name not in keep][1:]:
        shutil.rmtree(old, ignore_errors=True)


def setting_up_message() -> str:
    """What the first session is told while the environment is built."""
    if _failed_recently():
        return (
            "memory-vault could not install its Python environment (see "
            f"{data_dir() / 'bootstrap.log'}); it tries again in a few minutes."
        )
    started = build_started() or time.time()
    try:
        usual = float((data_dir() / "build-seconds").read_text())
    except (OSError, ValueError):
        usual = USUAL_BUILD_SECONDS
    left = max(30.0, usual - (time.time() - started))
    when = f"about {left / 60:.0f} minutes" if left >= 90 else "about a minute"
    return (
        "memory-vault is being set up: its Python environment is being installed in the "
        f"background (into {data_dir()}); memory will be ready in {when}. Until then "
        "nothing is recalled; this session is captured by a later session's start."
    )


def installed_in_settings() -> bool:
    """`vault install` already put our hooks in settings.json: the plugin stays quiet."""
    settings = claude_dir(os.environ) / "settings.json"
    try:
        data = json.loads(settings.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    hooks = data.get("hooks", {}) if isinstance(data, dict) else {}
    for groups in hooks.values() if isinstance(hooks, dict) else []:
        for group in groups if isinstance(groups, list) else []:
            for handler in group.get("hooks", []) if isinstance(group, dict) else []:
                command = str(handler.get("command", "")) if isinstance(handler, dict) else ""
                if (
                    MARKER in command
                    and "CLAUDE_PLUGIN_ROOT" not in command
                    and str(ROOT) not in command
                ):
                    return True
    return False


def say_setting_up(event: str) -> None:
    """SessionStart, once per session, while no environment is ready: say so."""
    if event != "session-start":
        return
    output = {
        "systemMessage": setting_up_message(),
        "hookSpecificOutput": {
            "hookEventName": "SessionStart",
            "additionalContext": setting_up_message(),
        },
    }
    print(json.dumps(output))


def exec_or_exit(name: str, args: list[str], quiet: bool) -> None:
    """Run the environment's `name`; while it is first built, hooks pass (exit 0)
    and the MCP server explains. An older build keeps serving during a rebuild."""
    target = venv_bin(name)
    if not up_to_date():
        bootstrap_in_background()
    if target.exists():
        os.execv(str(target), [str(target), *args])
    if not quiet:
        print(f"memory-vault is still installing into {data_dir()}; try again in a few minutes",
              file=sys.stderr)  # fmt: skip
        sys.exit(1)
    say_setting_up(args[0] if args else "")
    sys.exit(0)


if __name__ == "__main__" and sys.argv[1:] == ["build"]:
    sys.exit(build())
