#!/usr/bin/env python3
"""Compile-time benchmark of apipe-software-pipeline.

Generates modules with 10, 100 and 1,000 loops of one shape (load in stage 0,
arith in stage 1, store in stage 2, 64 iterations, no async copies), one loop
per function, and times in one run:

- apipe:    apipe-opt --apipe-software-pipeline=sync=tokens, the loops
            annotated with apipe.stage;
- upstream: mlir-opt --transform-interpreter with transform.loop.pipeline
            (iteration_interval = 1, read_latency = 1), which calls the same
            scf::pipelineForLoop as --test-scf-pipelining and derives the same
            three-stage schedule. --test-scf-pipelining itself is a test pass
            that the Debian mlir-opt 22 does not ship.

Both times are the pass times that --mlir-timing reports (wall clock of the
pass alone: not parsing, printing, nor the verifier after the pipeline). Each
run is repeated and the best time is kept.

apipe-opt is an optimized build: unless --apipe-opt is given, the script
first runs `cargo build --release --bin apipe-opt` (several minutes the first
time, seconds after) and says so, and times target/release/apipe-opt
(the upstream mlir-opt is an optimized build too).

Usage: benches/software_pipeline.py [--apipe-opt PATH] [--mlir-opt PATH] [--repeat N]
"""
import argparse
import os
import re
import subprocess
import tempfile

LOOP = """func.func @f{n}(%A: memref<64xf32>, %out: memref<64xf32> {{llvm.noalias}}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {{
    %x = memref.load %A[%i]{s0} : memref<64xf32>
    %y = arith.addf %x, %x{s1} : f32
    memref.store %y, %out[%i]{s2} : memref<64xf32>
  }}
  return
}}
"""

TRANSFORM = """module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %p = transform.loop.pipeline %loops {iteration_interval = 1 : i64, read_latency = 1 : i64} : (!transform.op<"scf.for">) -> !transform.any_op
    transform.yield
  }
}
"""


def module(count, annotated):
    stages = (
        [" {apipe.stage = %d : i64}" % s for s in range(3)] if annotated else ["", "", ""]
    )
    loops = "".join(
        LOOP.format(n=n, s0=stages[0], s1=stages[1], s2=stages[2]) for n in range(count)
    )
    if annotated:
        return loops
    # The payload in a nested module, the transform script beside it.
    return "module {\n" + loops + "}\n" + TRANSFORM


def pass_time(command, name):
    """The wall time in seconds of the pass named `name` in --mlir-timing."""
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{result.stderr[-2000:]}")
    for line in result.stderr.splitlines():
        if name in line:
            # "   0.0123 ( 45.6%)  PassName" (wall time first).
            match = re.match(r"\s*([0-9.]+)", line)
            if match:
                return float(match.group(1))
    raise SystemExit(f"no timing line for {name} in:\n{result.stderr}")


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser()
    parser.add_argument("--apipe-opt", default=None)
    parser.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if args.apipe_opt is None:
        print("building an optimized apipe-opt: cargo build --release --bin apipe-opt", flush=True)
        subprocess.run(["cargo", "build", "--release", "--bin", "apipe-opt"], cwd=root, check=True)
        args.apipe_opt = os.path.join(root, "target/release/apipe-opt")
    print(f"apipe-opt: {args.apipe_opt}", flush=True)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for count in (10, 100, 1000):
            ours_file = os.path.join(tmp, f"apipe{count}.mlir")
            theirs_file = os.path.join(tmp, f"upstream{count}.mlir")
            with open(ours_file, "w") as f:
                f.write(module(count, True))
            with open(theirs_file, "w") as f:
                f.write(module(count, False))
            ours = min(
                pass_time(
                    [args.apipe_opt, ours_file, "--apipe-software-pipeline=sync=tokens",
                     "--mlir-timing", "-o", os.devnull],
                    "ApipeSoftwarePipeline",
                )
                for _ in range(args.repeat)
            )
            theirs = min(
                pass_time(
                    [args.mlir_opt, theirs_file, "--transform-interpreter",
                     "--mlir-timing", "-o", os.devnull],
                    "InterpreterPass",
                )
                for _ in range(args.repeat)
            )
            rows.append((count, ours, theirs))
    print(f"{'loops':>6} {'apipe (s)':>10} {'upstream (s)':>13} {'ratio':>6}")
    for count, ours, theirs in rows:
        print(f"{count:>6} {ours:>10.4f} {theirs:>13.4f} {ours / theirs:>6.2f}")
    for (c0, o0, t0), (c1, o1, t1) in zip(rows, rows[1:]):
        print(f"growth {c0}->{c1} loops: apipe x{o1 / o0:.1f}, upstream x{t1 / t0:.1f}")


if __name__ == "__main__":
    main()
