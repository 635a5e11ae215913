"""The package and the model: the installed distribution's version, every module of
its four packages importable (a wheel missing files fails here), and the encoder
the index uses building and encoding one text."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from typing import TYPE_CHECKING

from hooks.doctor.report import Check, failed, passed
from hooks.version import UNKNOWN, installed_version

if TYPE_CHECKING:
    from indexer.embedder import Embedder

PACKAGES = ("vault", "indexer", "memory", "hooks")
REINSTALL = "reinstall memory-vault (see the README's Install section)"


def module_names() -> list[str]:
    names = list(PACKAGES)
    for package in PACKAGES:
        module = importlib.import_module(package)
        prefix = f"{package}."
        names += [info.name for info in pkgutil.walk_packages(module.__path__, prefix)]
    return names


def package_check() -> Check:
    version = installed_version()
    if version == UNKNOWN:
        return failed("package", "memory-vault is not installed in this Python", REINSTALL)
    broken = []
    names = [name for name in module_names() if not name.endswith("__main__")]
    for name in names:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            broken.append(f"{name} ({exc})")
    if broken:
        return failed("package", f"{len(broken)} modules do not import: {broken[0]}", REINSTALL)
    where = importlib.import_module("hooks").__path__[0].rsplit("/", 1)[0]
    return passed(
        "package",
        f"memory-vault {version}, {len(names)} modules, Python {sys.version.split()[0]} at {where}",
    )


def model_check(model: str) -> tuple[Check, Embedder | None]:
    """The encoder the index uses, built and asked for one vector."""
    from indexer.embedder import serving_embedder

    name = model or "the bundled all-MiniLM-L6-v2"
    try:
        embedder = serving_embedder(model)
        vectors = embedder.encode(["is the memory working?"])
    except Exception as exc:  # a missing package, model file or runtime: all reported
        fix = "set `model` to an installed sentence-transformers model" if model else REINSTALL
        return failed("model", f"{name} does not encode: {exc}", fix), None
    return passed("model", f"{name} encodes ({len(vectors[0])} dimensions)"), embedder
