"""`make mutation`: mutation testing with cosmic-ray over the modules that guard
data, privacy and the session (tools/mutation_groups.toml), printing the kill
rate per group beside its target and every surviving mutant.

cosmic-ray, not mutmut: it writes each mutant into the module's file on disk,
so the `vault`, `vault-hook` and daemon processes the tests start run the
mutant too (mutmut 3 switches mutants inside the test process, which those
subprocesses never see). The run happens in a scratch git worktree of HEAD,
never in this checkout.

    .venv/bin/python tools/mutation.py [--group NAME ...] [--module PATH]
        [--sample N] [--diff] [--keep] [--json]

A group may name, per module, the functions that hold its concern
(`functions`): the rest of that module is not mutated for the group. Its
`equivalent` list names survivors no test can tell from the original (the
README says why for each); they are not counted. `--sample N`
runs N mutants per group, evenly spaced over the ordered list (the same N every
time), for a group too big to finish; the printed line says it was a sample.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
# Realistic slips only: an off-by-one bound, a flipped test, a swapped sign,
# a dropped loop or handler; not every binary operator for every other.
KEEP_BINARY = ("Add_Sub", "Sub_Add", "Mul_Div", "Div_Mul")
KEEP_COMPARE = ("Lt_LtE", "LtE_Lt", "Gt_GtE", "GtE_Gt", "Eq_NotEq", "NotEq_Eq", "Is_IsNot",
                "IsNot_Is", "In_NotIn", "NotIn_In")  # fmt: skip


def excluded_operators() -> list[str]:
    names = subprocess.run([BIN / "cosmic-ray", "operators"], capture_output=True, text=True,
                           check=True).stdout.split()  # fmt: skip
    drop = []
    for name in names:
        kind, _, pair = name.removeprefix("core/").partition("_")
        if (kind == "ReplaceBinaryOperator" and pair not in KEEP_BINARY) or (
            kind == "ReplaceComparisonOperator" and pair not in KEEP_COMPARE
        ):
            drop.append(f"^{name}$")
    return drop + ["^core/VariableInserter$", "^core/VariableReplacer$"]


def config(group: dict[str, object], tree: Path, exclude: list[str]) -> str:
    tests = " ".join(str(t) for t in group["tests"] if (tree / str(t)).exists())  # type: ignore[attr-defined]
    command = f"{sys.executable} -m pytest -x -q -n 0 -p no:cacheprovider -p no:randomly {tests}"
    return "\n".join([
        "[cosmic-ray]",
        f"module-path = {json.dumps(group['modules'])}",
        "timeout = 300.0",
        "excluded-modules = []",
        f"test-command = {json.dumps(command)}",
        "[cosmic-ray.distributor]",
        'name = "local"',
        "[cosmic-ray.filters.operators-filter]",
        f"exclude-operators = {json.dumps(exclude)}",
    ]) + "\n"  # fmt: skip


def function_lines(source: Path, names: list[str]) -> set[int]:
    """The lines of the top-level functions `names` in `source` (decorators included)."""
    lines: set[int] = set()
    found = set()
    for node in ast.parse(source.read_text()).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name in names:
            found.add(node.name)
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            lines.update(range(first, (node.end_lineno or node.lineno) + 1))
    if missing := set(names) - found:
        sys.exit(
            f"{source}: no top-level {', '.join(sorted(missing))} (tools/mutation_groups.toml)"
        )
    return lines


def readme_figures() -> dict[str, str]:
    """The kill rate the README records per group (its "Mutation testing" table)."""
    figures = {}
    text = (ROOT / "README.md").read_text()
    for line in text[text.find("**Mutation testing.**") :].splitlines():
        cells = [cell.strip().strip("`") for cell in line.strip().strip("|").split("|")]
        if line.startswith("| `") and len(cells) > 1:
            figures[cells[0]] = cells[1]
    return figures


def order(mutation: Any) -> tuple[str, tuple[int, int], str, int]:
    return (str(mutation.module_path), tuple(mutation.start_pos), mutation.operator_name,
            mutation.occurrence)  # fmt: skip


def narrow(session: Path, tree: Path, group: dict[str, object], only: str | None,
           sample: int | None) -> int:  # fmt: skip
    """Skip the mutants outside the group's named functions, outside `only` (a
    module), and, with `sample`, all but `sample` evenly spaced ones. The number
    of mutants left before sampling."""
    from cosmic_ray.work_db import use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    functions: dict[str, list[str]] = group.get("functions", {})  # type: ignore[assignment]
    wanted = {module: function_lines(tree / module, names) for module, names in functions.items()}
    with use_db(str(session)) as db:
        kept, dropped = [], []
        for item in db.pending_work_items:
            mutation = item.mutations[0]
            module = str(mutation.module_path)
            inside = module not in wanted or mutation.start_pos[0] in wanted[module]
            (kept if inside and only in (None, module) else dropped).append(item)
        kept.sort(key=lambda item: order(item.mutations[0]))
        eligible = len(kept)
        if sample is not None and sample < eligible:
            chosen = {round(n * eligible / sample) for n in range(sample)}
            dropped += [item for n, item in enumerate(kept) if n not in chosen]
        skip = WorkResult(output="outside the group's scope", worker_outcome=WorkerOutcome.SKIPPED)
        if dropped:
            db.set_multiple_results([item.job_id for item in dropped], skip)
    return eligible


def run_group(name: str, group: dict[str, object], tree: Path, exclude: list[str],
              only: str | None = None, sample: int | None = None) -> dict:  # fmt: skip
    work = tree / ".mutation" / name
    work.mkdir(parents=True, exist_ok=True)
    cfg, session = work / "config.toml", work / "session.sqlite"
    cfg.write_text(config(group, tree, exclude))
    env = {**os.environ, "PYTHONPATH": str(tree), "HF_HUB_OFFLINE": "1",
           "VAULT_MODEL_CACHE": str(ROOT / ".cache" / "models")}  # fmt: skip
    for step in (["cosmic-ray", "init"], ["cr-filter-operators"], ["cosmic-ray", "exec"]):
        if step[0] == "cosmic-ray" and step[1] == "exec":
            eligible = narrow(session, tree, group, only, sample)
        args = [str(BIN / step[0]), *step[1:]]
        args += (
            [str(session), str(cfg)]
            if step[0] == "cr-filter-operators"
            else [str(cfg), str(session)]
        )
        subprocess.run(args, cwd=tree, env=env, check=True, stdout=subprocess.DEVNULL)
    dump = subprocess.run([BIN / "cosmic-ray", "dump", str(session)], cwd=tree,
                          capture_output=True, text=True, check=True).stdout  # fmt: skip
    killed, survivors, skipped = 0, [], 0
    for line in dump.splitlines():
        item, result = json.loads(line)
        if result is None or result.get("worker_outcome") == "skipped":
            skipped += 1
            continue
        if result.get("test_outcome") == "survived":
            mutation = item["mutations"][0]
            survivors.append((f"{mutation['module_path']}:{mutation['start_pos'][0]} "
                              f"{mutation['operator_name']} #{mutation['occurrence']}",
                              result.get("diff") or ""))  # fmt: skip
        else:
            killed += 1
    ran = killed + len(survivors)
    known: list[str] = group.get("equivalent", [])  # type: ignore[assignment]
    equivalent = [key for key, _ in survivors if key in known]
    survivors = [(key, diff) for key, diff in survivors if key not in known]
    total = killed + len(survivors)
    return {"group": name, "killed": killed, "total": total, "skipped": skipped,
            "rate": killed / total if total else 1.0, "target": group["target"],
            "eligible": eligible, "ran": ran, "equivalent": equivalent,
            "survivors": survivors}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--group", action="append", help="only these groups (repeatable)")
    parser.add_argument("--module", help="only this module of the chosen groups (a path)")
    parser.add_argument("--sample", type=int, help="at most N mutants per group, evenly spaced")
    parser.add_argument("--diff", action="store_true", help="print each survivor's diff")
    parser.add_argument("--keep", action="store_true", help="keep the scratch worktree")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    groups = tomllib.loads((ROOT / "tools" / "mutation_groups.toml").read_text())["groups"]
    chosen = args.group or list(groups)
    if unknown := set(chosen) - set(groups):
        sys.exit(f"no group {', '.join(sorted(unknown))}; the groups: {', '.join(groups)}")
    tree = Path(tempfile.mkdtemp(prefix="mutation-"))
    subprocess.run(["git", "worktree", "add", "--detach", str(tree), "HEAD"], cwd=ROOT,
                   check=True, capture_output=True)  # fmt: skip
    os.symlink(ROOT / ".tools", tree / ".tools")
    exclude = excluded_operators()
    recorded = readme_figures()
    results = []
    try:
        for name in chosen:
            result = run_group(name, groups[name], tree, exclude, args.module, args.sample)
            results.append(result)
            mark = "ok " if result["rate"] >= result["target"] else "LOW"
            scope = (f"  (a sample of {result['ran']} of {result['eligible']})"
                     if result["ran"] < result["eligible"] else "")  # fmt: skip
            if result["equivalent"]:
                scope += f"  ({len(result['equivalent'])} equivalent, not counted)"
            rate = f"{result['rate']:6.1%}  target {result['target']:.0%}{scope}"
            readme = recorded.get(name, "none recorded")
            print(f"{mark} {name:16} killed {result['killed']:4}/{result['total']:<4} {rate}"
                  f"  (README: {readme})", flush=True)  # fmt: skip
            for survivor, diff in result["survivors"]:
                print(f"      survived: {survivor}", flush=True)
                if args.diff:
                    print("        " + diff.strip().replace("\n", "\n        "), flush=True)
    finally:
        if not args.keep:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT,
                           capture_output=True)  # fmt: skip
            shutil.rmtree(tree, ignore_errors=True)
    if args.json:
        print(json.dumps(results, indent=1))
    sys.exit(0 if all(r["rate"] >= r["target"] for r in results) else 1)


if __name__ == "__main__":
    main()
