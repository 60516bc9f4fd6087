#!/usr/bin/env python3
"""Growth of every apipe pass with the number of pipelined loops in one
kernel. Not a test: it prints figures.

Generates one `gpu.func` with N annotated copy loops in one block (each
over its own workgroup tile: a copy in stage 0 two iterations ahead of its
read in stage 2, the shape of `examples/software_pipeline_input.mlir`),
pipelines it into the three synchronization forms (counting, tokens,
mbarrier), and measures each pass on each form at two sizes (default N =
30 and 300): with valgrind installed, the instructions the pass runs
(callgrind, collecting inside the pass's run only: deterministic on a
shared machine); otherwise, or with `--wall`, the pass's own wall time
from `--mlir-timing` (parsing, verification and printing excluded), best
of 3, which caches and other processes make noisy at these sizes. A pass is
linear when 10x the loops cost at most 11x; the last column flags the
others. Every per-loop state
that grows with the loops before it (a block walked from its start for each
op, a list scanned per query, values of finished loops carried along) shows
here as a ratio near 100.

    python3 benches/pass_scaling.py [--wall] [SMALL LARGE]
        (after cargo build --release -p apipe-tools; APIPE_BIN_DIR overrides
         target/release; about 10 minutes under valgrind)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("APIPE_BIN_DIR", os.path.join(ROOT, "target", "release"))
OPT = os.path.join(BIN, "apipe-opt")

# (form, the pipeline that makes it from the annotated kernel).
FORMS = [
    ("annotated", []),
    ("counting", ["--apipe-software-pipeline"]),
    ("tokens", ["--apipe-software-pipeline=sync=tokens"]),
    ("mbarrier", ["--apipe-software-pipeline=sync=tokens", "--apipe-tokens-to-mbarrier"]),
]

# (flag, the name --mlir-timing prints, the forms it runs on: None for
# every pipelined form).
PASSES = [
    ("--apipe-software-pipeline", "ApipeSoftwarePipeline", ["annotated"]),
    ("--apipe-check-hazards", "ApipeCheckHazards", None),
    ("--apipe-counting-to-tokens", "ApipeCountingToTokens", None),
    ("--apipe-tokens-to-counting", "ApipeTokensToCounting", None),
    ("--apipe-tokens-to-mbarrier", "ApipeTokensToMbarrier", None),
    ("--apipe-mbarrier-to-nvvm", "ApipeMbarrierToNvvm", None),
    ("--apipe-make-sync", "ApipeMakeSync", None),
    ("--apipe-merge-queues", "ApipeMergeQueues", None),
    ("--apipe-select-sync", "ApipeSelectSync", None),
    ("--apipe-to-nvgpu", "ApipeToNvgpu", None),
    ("--apipe-to-emulation", "ApipeToEmulation", None),
    ("--apipe-import-nvgpu", "ApipeImportNvgpu", None),
]


def kernel(n):
    """One gpu.func with `n` annotated copy loops in its entry block."""
    tiles = ", ".join(f"%tile{i} : memref<4xf32, 3>" for i in range(n))
    lines = [
        "module attributes {gpu.container_module} {",
        "gpu.module @kernels {",
        "gpu.func @k(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) "
        f"workgroup({tiles}) kernel {{",
    ]
    for c in (0, 1, 4, 16):
        lines.append(f"  %c{c} = arith.constant {c} : index")
    for i in range(n):
        lines += [
            "  scf.for %j = %c0 to %c16 step %c1 {",
            "    %off = arith.muli %j, %c4 {apipe.stage = 0 : i64} : index",
            f"    apipe.copy %A[%off], %tile{i}[%c0], 4 {{apipe.stage = 0 : i64}} : memref<64xf32> to memref<4xf32, 3>",
            f"    %x = memref.load %tile{i}[%c1] {{apipe.stage = 2 : i64}} : memref<4xf32, 3>",
            "    memref.store %x, %out[%j] {apipe.stage = 2 : i64} : memref<16xf32>",
            "  } {apipe.async_stages = array<i64: 0>}",
        ]
    lines += ["  gpu.return", "}", "}", "}"]
    return "\n".join(lines) + "\n"


def pass_seconds(path, flag, name):
    """The pass's wall seconds (best of 3); None if it fails on the input."""
    best = None
    for _ in range(3):
        run = subprocess.run([OPT, path, flag, "--mlir-timing", "-o", os.devnull],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if run.returncode != 0:
            return None
        for line in run.stderr.splitlines():
            match = re.match(r"\s*([0-9.]+)\s+\(\s*[0-9.]+%\)\s+(\S+)$", line)
            if match and match.group(2) == name:
                seconds = float(match.group(1))
                best = seconds if best is None else min(best, seconds)
                break
    return best


def pass_instructions(path, flag, tmp):
    """The instructions the pass runs (callgrind); None if it fails."""
    out = os.path.join(tmp, "callgrind.out")
    run = subprocess.run(["valgrind", "--tool=callgrind", "--toggle-collect=*run_pass*",
                          f"--callgrind-out-file={out}", OPT, path, flag, "-o", os.devnull],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if run.returncode != 0:
        return None
    match = re.search(r"Collected : ([0-9]+)", run.stderr)
    return int(match.group(1)) if match else None


def main():
    args = [a for a in sys.argv[1:] if a != "--wall"]
    wall = "--wall" in sys.argv[1:] or shutil.which("valgrind") is None
    small, large = [int(a) for a in args[:2]] if len(args) > 1 else (30, 300)
    with tempfile.TemporaryDirectory() as tmp:
        inputs = {}
        for n in (small, large):
            source = os.path.join(tmp, f"kernel{n}.mlir")
            with open(source, "w") as f:
                f.write(kernel(n))
            for form, pipeline in FORMS:
                path = os.path.join(tmp, f"{form}{n}.mlir")
                subprocess.run([OPT, source, *pipeline, "-o", path], check=True)
                inputs[(form, n)] = path
        size = large / small
        unit = "wall ms, best of 3" if wall else "million instructions"
        print(f"pass cost ({unit}) on one kernel of {small} and {large} "
              f"pipelined loops; linear: at most {1.1 * size:.1f}x")
        print(f"{'pass':<28} {'form':<9} {small:>8} {large:>9} {'growth':>7}")
        worst = 0.0
        for flag, name, forms in PASSES:
            for form in forms or [f for f, _ in FORMS if f != "annotated"]:
                if wall:
                    a = pass_seconds(inputs[(form, small)], flag, name)
                    b = pass_seconds(inputs[(form, large)], flag, name)
                    a, b = (None if x is None else x * 1e3 for x in (a, b))
                else:
                    a = pass_instructions(inputs[(form, small)], flag, tmp)
                    b = pass_instructions(inputs[(form, large)], flag, tmp)
                    a, b = (None if x is None else x / 1e6 for x in (a, b))
                if a is None or b is None:
                    print(f"{flag:<28} {form:<9} {'refused':>8}")
                    continue
                growth = b / a if a > 0 else float("inf")
                worst = max(worst, growth)
                flag_text = "" if growth <= 1.1 * size else "  superlinear"
                print(f"{flag:<28} {form:<9} {a:>8.2f} {b:>9.2f} "
                      f"{growth:>6.1f}x{flag_text}")
        print(f"largest growth: {worst:.1f}x for {size:.0f}x the loops")


if __name__ == "__main__":
    main()
