"""``python -m benchmarks``: run every benchmark module and print one table."""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
import traceback

import benchmarks
from benchmarks import Row


def main(selected: list[str]) -> int:
    names = sorted(m.name for m in pkgutil.iter_modules(benchmarks.__path__)
                   if m.name.startswith("bench_"))
    if selected:
        names = [n for n in names if any(s in n for s in selected)]
    rows: list[Row] = []
    failed = 0
    for name in names:
        started = time.perf_counter()
        print(f"running {name} …", file=sys.stderr, flush=True)
        try:
            rows += importlib.import_module(f"benchmarks.{name}").run()
        except Exception:
            failed += 1
            traceback.print_exc()
            rows.append(Row(name, "FAILED", "see the traceback above"))
        print(f"  {name}: {time.perf_counter() - started:.1f} s", file=sys.stderr)
    widths = [max(len(getattr(r, f)) for r in [Row("benchmark", "value", "notes"), *rows])
              for f in ("name", "value", "note")]
    header = Row("benchmark", "value", "notes")
    for i, row in enumerate([header, *rows]):
        print(f"{row.name:<{widths[0]}}  {row.value:>{widths[1]}}  {row.note}")
        if i == 0:
            print(f"{'-' * widths[0]}  {'-' * widths[1]}  {'-' * widths[2]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
