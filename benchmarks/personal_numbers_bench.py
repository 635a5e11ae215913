"""False positives of the IBAN and SSN rules on text that holds none: the
redaction corpus's ordinary developer lines, then every line of the Markdown,
reStructuredText, text and Python files under the running Python's site-packages
(docs, tests and code of about a hundred packages). Prints how many lines each
rule changed and shows up to ten of them.

Run: .venv/bin/python -m benchmarks.personal_numbers_bench
"""

from __future__ import annotations

import sysconfig
from collections.abc import Callable, Iterator
from pathlib import Path

from memory.encode.personal_numbers import mask_ibans, mask_ssns
from tests.memory.redact_corpus import NEGATIVE

SUFFIXES = (".md", ".rst", ".txt", ".py")
RULES: dict[str, Callable[[str], str]] = {"iban": mask_ibans, "ssn": mask_ssns}


def site_lines() -> Iterator[str]:
    root = Path(sysconfig.get_paths()["purelib"])
    for path in sorted(root.rglob("*")):
        if path.suffix in SUFFIXES and path.is_file():
            try:
                yield from path.read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeDecodeError):
                continue


def measure(name: str, lines: Iterator[str] | tuple[str, ...]) -> None:
    total = 0
    hits: dict[str, list[str]] = {rule: [] for rule in RULES}
    for line in lines:
        total += 1
        for rule, mask in RULES.items():
            if mask(line) != line:
                hits[rule].append(line.strip()[:120])
    for rule, found in hits.items():
        print(f"{name}: {rule} changed {len(found)} of {total:,} lines")
        for line in found[:10]:
            print(f"    {line}")


if __name__ == "__main__":
    measure("redact corpus (NEGATIVE)", NEGATIVE)
    measure("site-packages text and code", site_lines())
