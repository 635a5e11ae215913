"""One setting's declaration and the check of its values: the type (from the
declaration's annotation), the default, the inclusive range and the help text.
A value from config.toml or a VAULT_<KEY> variable is taken only if it is of
that type and in range, else a one-line VaultError names the key and where
the value came from. Nothing is coerced: 2.9 is not a whole number, true is
not a number. Standard library only, and no `typing` at run time (the prompt
hook loads it)."""

from __future__ import annotations

import math
import os

from vault.errors import VaultError

TYPE_CHECKING = False  # not typing's: on the prompt hook path `import typing` adds ~23 ms
if TYPE_CHECKING:
    from typing import TypeVar

    T = TypeVar("T")

# What a setting holds: the annotations the declarations may use.
SettingValue = float | int | bool | str | tuple[str, ...]
KINDS = ("float", "int", "bool", "str", "tuple[str, ...]")
FOLDER_SUFFIX = "_folder"  # a setting naming a folder of the vault (the note folders)
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


class Declared:
    """A setting as declared: `key` and `kind` are filled in from the attribute's
    name and annotation once the class body is read (vault/config.py)."""

    __slots__ = ("default", "help", "high", "key", "kind", "low", "per_call", "table")

    def __init__(
        self,
        table: str,
        default: SettingValue,
        help: str,
        low: float | None,
        high: float | None,
        per_call: bool,
    ) -> None:
        self.table, self.default, self.help = table, default, help
        self.low, self.high, self.per_call = low, high, per_call
        self.key, self.kind = "", ""

    def bind(self, key: str, kind: str) -> None:
        """Name the setting; a declaration whose default breaks its own type or
        range is a mistake in the code, reported at import."""
        if kind not in KINDS:
            raise TypeError(f"setting {key}: unsupported type {kind}")
        self.key, self.kind = key, kind
        if check(self, self.default, "the declaration") != self.default:
            raise TypeError(f"setting {key}: the default does not keep its type")

    def range_text(self) -> str:
        if self.low is not None and self.high is not None:
            return f"{self.low:g} to {self.high:g}"
        if self.low is not None:
            return f">= {self.low:g}"
        return f"<= {self.high:g}" if self.high is not None else ""


def declare(
    table: str,
    default: T,
    help: str,
    *,
    low: float | None = None,
    high: float | None = None,
    per_call: bool = True,
) -> T:
    """A setting in the Settings class body: `name: type = declare(table, default,
    help, low=, high=)`. `per_call` False: read once when a process starts (the
    daemon's model and index weights), so a request cannot change it.
    The class attribute is the Declared; instances hold the values (like
    dataclasses.field, which is typed the same way)."""
    return Declared(table, default, help, low, high, per_call)  # type: ignore[arg-type,return-value]


def check(spec: Declared, value: object, origin: str) -> SettingValue:
    """`value` as read from TOML or JSON, if it is of the setting's type and in range."""
    kind = spec.kind
    if kind == "tuple[str, ...]":
        if isinstance(value, str):
            return tuple(part for part in value.split(os.pathsep) if part)
        if isinstance(value, list | tuple) and all(isinstance(item, str) for item in value):
            return tuple(value)
        raise _wrong(spec, value, origin, "a list of strings (or one a:b string)")
    if kind == "bool":
        if isinstance(value, bool):
            return value
        raise _wrong(spec, value, origin, "true or false")
    if kind == "str":
        if not isinstance(value, str):
            raise _wrong(spec, value, origin, "a string")
        if spec.key.endswith(FOLDER_SUFFIX) and not inside_vault(value):
            raise _wrong(spec, value, origin, "a folder inside the vault (relative, no '..', "
                         "not hidden, not memories/ or archive/)")  # fmt: skip
        return value
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _wrong(spec, value, origin, _number_kind(spec))
    if kind == "int" and not isinstance(value, int):
        raise _wrong(spec, value, origin, _number_kind(spec))
    number = float(value) if kind == "float" else value
    if math.isnan(number) or math.isinf(number) or not _in_range(spec, number):
        raise _wrong(spec, value, origin, _number_kind(spec))
    return number


def inside_vault(folder: str) -> bool:
    """Whether `folder` names a place for notes inside the vault: relative, no
    `..`, no hidden part (.index, .state, .git), not where memories live."""
    parts = folder.replace("\\", "/").rstrip("/").split("/")
    if not folder.strip() or os.path.isabs(folder) or folder.startswith("~"):
        return False
    if any(part in ("", "..") or part.startswith(".") for part in parts):
        return False
    return parts[0] not in ("memories", "archive")


def check_text(spec: Declared, text: str, origin: str) -> SettingValue:
    """A value from the environment (text), read as its type, then checked."""
    stripped = text.strip()
    if spec.kind == "bool":
        if stripped.lower() in _TRUE + _FALSE:
            return stripped.lower() in _TRUE
        raise _wrong(spec, text, origin, "true or false (1/0, yes/no)")
    if spec.kind in ("str", "tuple[str, ...]"):
        return check(spec, text, origin)
    try:
        number: float | int = int(stripped) if spec.kind == "int" else float(stripped)
    except ValueError:
        raise _wrong(spec, text, origin, _number_kind(spec)) from None
    return check(spec, number, origin)


def _in_range(spec: Declared, number: float) -> bool:
    return (spec.low is None or number >= spec.low) and (spec.high is None or number <= spec.high)


def _number_kind(spec: Declared) -> str:
    what = "a whole number" if spec.kind == "int" else "a number"
    bounds = spec.range_text()
    return f"{what} {bounds}" if bounds else what


def _wrong(spec: Declared, value: object, origin: str, wanted: str) -> VaultError:
    shown = str(value).lower() if isinstance(value, bool) else repr(value)  # as TOML writes it
    return VaultError(f"{origin}: {spec.key} must be {wanted}, got {shown}")


def toml_value(value: SettingValue) -> str:
    """A value as config.toml writes it."""
    if isinstance(value, tuple):
        return "[" + ", ".join(f'"{item}"' for item in value) + "]"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value).lower() if isinstance(value, bool) else str(value)
