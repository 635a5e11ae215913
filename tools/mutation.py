"""`make mutation`: mutation testing with cosmic-ray over the modules that guard
data, privacy and the session (tools/mutation_groups.toml), printing the kill
rate per group beside its target and every surviving mutant.

cosmic-ray, not mutmut: it writes each mutant into the module's file on disk,
so the `vault`, `vault-hook` and daemon processes the tests start run the
mutant too (mutmut 3 switches mutants inside the test process, which those
subprocesses never see). The run happens in a scratch git worktree of HEAD,
never in this checkout.

    .venv/bin/python tools/mutation.py [--group NAME ...] [--module PATH]
        [--sample N] [--diff] [--keep] [--json] [--check]

A group may name, per module, the functions that hold its concern
(`functions`): the rest of that module is not mutated for the group. Its
`equivalent` list names survivors no test can tell from the original (the
README says why for each); they are not counted. Its keys name no line number
(see mutant_keys), and a key that names no mutant stops the run
(`--check` checks every group's without running a test). A mutant that hangs
the tests is killed at the timeout (cosmic-ray counts it so; the line says how
many). `--sample N` runs N mutants per group, evenly spaced over the ordered
list (the same N every time), for a group too big to finish; the printed line
says it was a sample.
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
TIMEOUT = 300.0  # seconds for a mutant's tests; a hang counts as killed
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
        f"timeout = {TIMEOUT}",
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
            figures[cells[0]] = cells[-1]  # the rate after the survivors' fate
    return figures


def order(mutation: Any) -> tuple[str, tuple[int, int], str, int]:
    return (str(mutation.module_path), tuple(mutation.start_pos), mutation.operator_name,
            mutation.occurrence)  # fmt: skip


def mutant_keys(tree: Path, items: list[Any]) -> dict[str, str]:
    """A key per work item that survives edits elsewhere in the module: the module,
    the mutated line's text (stripped), the operator, and the rank among the mutants
    of that operator on lines of that same text. No line number, no module-wide
    occurrence: both move when a line is added above."""
    lines: dict[str, list[str]] = {}
    ranks: dict[tuple[str, str, str], int] = {}
    keys = {}
    for item in sorted(items, key=lambda item: order(item.mutations[0])):
        mutation = item.mutations[0]
        module = str(mutation.module_path)
        if module not in lines:
            lines[module] = (tree / module).read_text().splitlines()
        text = lines[module][mutation.start_pos[0] - 1].strip()
        rank = ranks.get((module, text, mutation.operator_name), 0)
        ranks[module, text, mutation.operator_name] = rank + 1
        keys[item.job_id] = f"{module}: {text}  [{mutation.operator_name} {rank}]"
    return keys


def narrow(session: Path, tree: Path, group: dict[str, object], only: str | None,
           sample: int | None) -> tuple[int, dict[str, str]]:  # fmt: skip
    """Skip the mutants outside the group's named functions, outside `only` (a
    module), and, with `sample`, all but `sample` evenly spaced ones. The number
    of mutants left before sampling, and every mutant's key (by job id). Exits
    when an `equivalent` entry names no mutant: the code it named has changed."""
    from cosmic_ray.work_db import use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    functions: dict[str, list[str]] = group.get("functions", {})  # type: ignore[assignment]
    wanted = {module: function_lines(tree / module, names) for module, names in functions.items()}
    with use_db(str(session)) as db:
        pending = list(db.pending_work_items)
        keys = mutant_keys(tree, pending)
        known: list[str] = group.get("equivalent", [])  # type: ignore[assignment]
        if stale := [key for key in known if key not in keys.values()]:
            sys.exit("tools/mutation_groups.toml: no such mutant any more (its line changed; "
                     "check it is still equivalent and update the entry):\n  "
                     + "\n  ".join(stale))  # fmt: skip
        kept, dropped = [], []
        for item in pending:
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
    return eligible, keys


def run_group(name: str, group: dict[str, object], tree: Path, exclude: list[str],
              only: str | None = None, sample: int | None = None,
              check: bool = False) -> dict | None:  # fmt: skip
    """The group's kill rate and survivors; with `check`, only the mutants are
    listed (no test runs) and the group's `equivalent` keys checked against them."""
    work = tree / ".mutation" / name
    work.mkdir(parents=True, exist_ok=True)
    cfg, session = work / "config.toml", work / "session.sqlite"
    cfg.write_text(config(group, tree, exclude))
    env = {**os.environ, "PYTHONPATH": str(tree), "HF_HUB_OFFLINE": "1",
           "VAULT_MODEL_CACHE": str(ROOT / ".cache" / "models")}  # fmt: skip
    for step in (["cosmic-ray", "init"], ["cr-filter-operators"], ["cosmic-ray", "exec"]):
        if step[0] == "cosmic-ray" and step[1] == "exec":
            eligible, keys = narrow(session, tree, group, only, sample)
            if check:
                return None
        args = [str(BIN / step[0]), *step[1:]]
        args += (
            [str(session), str(cfg)]
            if step[0] == "cr-filter-operators"
            else [str(cfg), str(session)]
        )
        subprocess.run(args, cwd=tree, env=env, check=True, stdout=subprocess.DEVNULL)
    dump = subprocess.run([BIN / "cosmic-ray", "dump", str(session)], cwd=tree,
                          capture_output=True, text=True, check=True).stdout  # fmt: skip
    killed, survivors, skipped, timeouts = 0, [], 0, 0
    for line in dump.splitlines():
        item, result = json.loads(line)
        if result is None or result.get("worker_outcome") == "skipped":
            skipped += 1
            continue
        if result.get("test_outcome") == "survived":
            mutation = item["mutations"][0]
            where = f"{mutation['module_path']}:{mutation['start_pos'][0]}"
            survivors.append((keys[item["job_id"]], where, result.get("diff") or ""))
        else:
            killed += 1  # a mutant that hangs the tests is killed at the timeout
            timeouts += result.get("output") == "timeout"
    ran = killed + len(survivors)
    known: list[str] = group.get("equivalent", [])  # type: ignore[assignment]
    equivalent = [key for key, _, _ in survivors if key in known]
    survivors = [survivor for survivor in survivors if survivor[0] not in known]
    total = killed + len(survivors)
    return {"group": name, "killed": killed, "total": total, "skipped": skipped,
            "rate": killed / total if total else 1.0, "target": group["target"],
            "eligible": eligible, "ran": ran, "equivalent": equivalent, "timeouts": timeouts,
            "survivors": survivors}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--group", action="append", help="only these groups (repeatable)")
    parser.add_argument("--module", help="only this module of the chosen groups (a path)")
    parser.add_argument("--sample", type=int, help="at most N mutants per group, evenly spaced")
    parser.add_argument("--diff", action="store_true", help="print each survivor's diff")
    parser.add_argument("--keep", action="store_true", help="keep the scratch worktree")
    parser.add_argument("--json", action="store_true")
    check = "only check that each `equivalent` key names a mutant (runs no test)"
    parser.add_argument("--check", action="store_true", help=check)
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
            result = run_group(name, groups[name], tree, exclude, args.module, args.sample,
                               args.check)  # fmt: skip
            if result is None:
                print(f"ok  {name:16} {len(groups[name].get('equivalent', []))} equivalent "
                      "keys, each names a mutant", flush=True)  # fmt: skip
                continue
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
            if result["timeouts"]:
                print(f"      {result['timeouts']} killed by the {TIMEOUT:.0f} s timeout (a hang)")
            for key, where, diff in result["survivors"]:
                print(f"      survived: {where}  {json.dumps(key)}", flush=True)
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
