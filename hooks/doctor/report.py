"""One check's outcome and how a report is printed: a line per check, `ok` or
`FAIL`, and the fix after a problem. Knows nothing of what is checked."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""

    def line(self) -> str:
        mark = "ok  " if self.ok else "FAIL"
        fix = f" -> fix: {self.fix}" if self.fix and not self.ok else ""
        return f"{mark}  {self.name:<12} {self.detail}{fix}"

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def passed(name: str, detail: str) -> Check:
    return Check(name, True, detail)


def failed(name: str, detail: str, fix: str) -> Check:
    return Check(name, False, detail, fix)


def guarded(name: str, check: Callable[[], Check], fix: str) -> Check:
    """Run `check`; an error it raises is that check's failure, never the doctor's."""
    try:
        return check()
    except Exception as exc:  # any failure of the thing checked is what we report
        text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return failed(name, text, fix)


def all_ok(checks: Sequence[Check]) -> bool:
    return all(check.ok for check in checks)
