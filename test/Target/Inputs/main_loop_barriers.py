#!/usr/bin/env python3
"""Counts bar.sync per main-loop iteration in PTX files.

The main loop of a kernel is the longest loop (a label, then a `bra` back to
it) whose body holds both `cp.async.wait_group` and a `cp.async` copy. LLVM
may unroll it: each source iteration has one `cp.async.wait_group`, so the
figure per iteration is the loop's bar.sync count divided by its wait_group
count. Prints, per file:

    FILE: main loop: B bar.sync, W wait_group: B/W per iteration; total T

Usage: main_loop_barriers.py FILE.ptx...
"""
import re
import sys


def main_loop(lines):
    labels = {}
    for i, line in enumerate(lines):
        m = re.match(r"^(\$L__BB\d+_\d+):", line.strip())
        if m:
            labels[m.group(1)] = i
    best = None
    for i, line in enumerate(lines):
        m = re.search(r"\bbra(?:\.uni)?\s+(\$L__BB\d+_\d+);", line)
        if not m or labels.get(m.group(1), i) >= i:
            continue
        start = labels[m.group(1)]
        body = lines[start : i + 1]
        if any("cp.async.wait_group" in b for b in body) and any(
            re.search(r"cp\.async\.c[ag]\.shared", b) for b in body
        ):
            if best is None or i - start > best[1] - best[0]:
                best = (start, i)
    return best


for path in sys.argv[1:]:
    lines = open(path).read().splitlines()
    total = sum("bar.sync" in line for line in lines)
    loop = main_loop(lines)
    if loop is None:
        print(f"{path}: no main loop; total {total}")
        continue
    body = lines[loop[0] : loop[1] + 1]
    bars = sum("bar.sync" in line for line in body)
    waits = sum("cp.async.wait_group" in line for line in body)
    print(
        f"{path}: main loop: {bars} bar.sync, {waits} wait_group: "
        f"{bars / waits:g} per iteration; total {total}"
    )
