"""`make mutation`'s keys for equivalent survivors (tools/mutation.py): a key names
the mutated line by its text, so an edit above it keeps the key, and two lines of
the same text are told apart by rank."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType, SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]


def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutation_tool", ROOT / "tools" / "mutation.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def mutant(job: str, line: int, operator: str, occurrence: int) -> SimpleNamespace:
    where = SimpleNamespace(module_path="pkg/mod.py", start_pos=(line, 4),
                            operator_name=operator, occurrence=occurrence)  # fmt: skip
    return SimpleNamespace(job_id=job, mutations=[where])


def test_a_key_survives_an_edit_above_its_line_and_same_text_lines_get_ranks(
    tmp_path: Path,
) -> None:
    (tmp_path / "pkg").mkdir()
    source = tmp_path / "pkg" / "mod.py"
    source.write_text("def f(x):\n    return x > 0\n\ndef g(y):\n    return y > 0\n")
    keys = tool().mutant_keys(tmp_path, [mutant("a", 2, "core/NumberReplacer", 0),
                                         mutant("b", 5, "core/NumberReplacer", 1)])  # fmt: skip
    assert keys == {
        "a": "pkg/mod.py: return x > 0  [core/NumberReplacer 0]",
        "b": "pkg/mod.py: return y > 0  [core/NumberReplacer 0]",
    }
    source.write_text("import os\n\n\ndef f(x):\n    return x > 0\n\ndef g(y):\n    return x > 0\n")
    moved = tool().mutant_keys(tmp_path, [mutant("c", 8, "core/NumberReplacer", 1),
                                          mutant("d", 5, "core/NumberReplacer", 0)])  # fmt: skip
    assert moved == {
        "d": "pkg/mod.py: return x > 0  [core/NumberReplacer 0]",  # = "a", three lines down
        "c": "pkg/mod.py: return x > 0  [core/NumberReplacer 1]",  # the second such line
    }
