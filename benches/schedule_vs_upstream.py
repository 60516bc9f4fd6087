#!/usr/bin/env python3
"""Scheduling benchmark: apipe-software-pipeline{num-stages=3} against
upstream transform.nvgpu.pipeline_shared_memory_copies {depth = 2} on the
same generated loops, as a time ratio in one run.

Loops. Each is an `scf.for` in its own `gpu.func` (one `gpu.module` per
file), written as upstream and IREE write copy loops before pipelining:
an optional `gpu.barrier`, 1 to 3 `nvgpu.device_async_copy`s into
workgroup tiles the user multi-buffered (slot `i mod 3`), one
`device_async_create_group`, its `device_async_wait`, a `gpu.barrier`, the
loads of the tiles and an f32 sum carried in an iter_arg. The copy count,
tile width and trip count vary with a fixed seed. Upstream pipelines every
one of them (its transform matches the loops of the `gpu.module`), and
apipe schedules every one: the benchmark fails if a pass refuses a loop,
or if apipe's remarks do not count one scheduled loop per kernel.

Both tools are optimized builds. apipe-opt runs
`--apipe-import-nvgpu --apipe-software-pipeline=num-stages=3` (the import
makes the `apipe.copy` / `commit_group` / `wait_group 0` form the
pipeliner reads; the pipeliner schedules the stages from the stage count,
multi-buffers, places the waits and the barriers, and rewrites the loop);
mlir-opt runs `--transform-interpreter` with the transform script next to
the payload. Times are the pass times `--mlir-timing` reports (wall
clock of each pass, not parsing or printing), best of `--repeat` runs:

- `pipeline`: apipe's ApipeSoftwarePipeline pass against upstream's
  transform interpreter (scheduling and pipelining on both sides);
- `with import`: apipe's import and pipeliner together against the same.

Linearity: 10x the loops should cost at most 11x the time.

apipe-opt: `--apipe-opt PATH`, else `$CARGO_TARGET_DIR/release/apipe-opt`
or `target/release/apipe-opt`, built first with
`cargo build --release --bin apipe-opt` unless `--no-build`.

Usage: benches/schedule_vs_upstream.py [--apipe-opt PATH] [--mlir-opt PATH]
       [--counts 100,1000,10000] [--repeat N] [--no-build]
"""
import argparse
import os
import random
import re
import subprocess
import tempfile

TRANSFORM = """module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %kernels = transform.structured.match ops{["gpu.module"]} in %root : (!transform.any_op) -> !transform.any_op
    %loops = transform.structured.match ops{["scf.for"]} in %kernels : (!transform.any_op) -> !transform.any_op
    %p = transform.nvgpu.pipeline_shared_memory_copies failures(propagate) %loops {depth = 2, peel_epilogue} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
"""


def kernel(n, rng):
    """One gpu.func with one copy loop; its shape drawn from `rng`."""
    copies = rng.randint(1, 3)
    width = rng.choice([32, 64, 128])
    trips = rng.choice([8, 16, 64, 100])
    leading_barrier = rng.random() < 0.5
    total = width * trips
    tile = f"memref<3x{width}xf32, 3>"
    glob = f"memref<{total}xf32>"
    args = ", ".join(f"%g{j}: {glob}" for j in range(copies))
    workgroup = ", ".join(f"%b{j}: {tile}" for j in range(copies))
    lines = [
        f"    gpu.func @k{n}({args}, %dst: memref<{width}xf32>) workgroup({workgroup}) kernel {{",
        "      %c0 = arith.constant 0 : index",
        "      %c1 = arith.constant 1 : index",
        "      %c3 = arith.constant 3 : index",
        f"      %cw = arith.constant {width} : index",
        f"      %ct = arith.constant {trips} : index",
        "      %zero = arith.constant 0.0 : f32",
        "      %tid = gpu.thread_id x",
        "      %r = scf.for %i = %c0 to %ct step %c1 iter_args(%acc = %zero) -> (f32) {",
    ]
    if leading_barrier:
        lines.append("        gpu.barrier")
    lines += [
        "        %slot = arith.remui %i, %c3 : index",
        "        %base = arith.muli %i, %cw : index",
        "        %off = arith.addi %base, %tid : index",
    ]
    for j in range(copies):
        lines.append(
            f"        %t{j} = nvgpu.device_async_copy %g{j}[%off], %b{j}[%slot, %tid], 1 : {glob} to {tile}"
        )
    tokens = ", ".join(f"%t{j}" for j in range(copies))
    lines += [
        f"        %grp = nvgpu.device_async_create_group {tokens}",
        "        nvgpu.device_async_wait %grp",
        "        gpu.barrier",
    ]
    total_value = "%acc"
    for j in range(copies):
        lines.append(f"        %x{j} = memref.load %b{j}[%slot, %tid] : {tile}")
        lines.append(f"        %s{j} = arith.addf {total_value}, %x{j} : f32")
        total_value = f"%s{j}"
    lines += [
        f"        scf.yield {total_value} : f32",
        "      }",
        f"      memref.store %r, %dst[%tid] : memref<{width}xf32>",
        "      gpu.return",
        "    }",
    ]
    return "\n".join(lines) + "\n"


def payload(count, seed=1):
    """`count` kernels in one gpu.module (the same for both tools)."""
    rng = random.Random(seed)
    body = "".join(kernel(n, rng) for n in range(count))
    return (
        "module attributes {gpu.container_module} {\n  gpu.module @kernels {\n"
        + body
        + "  }\n}\n"
    )


def timed(command, names):
    """Runs `command` with --mlir-timing; the wall times in seconds of the
    passes whose names contain each of `names`, and the stderr."""
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{result.stderr[-3000:]}")
    times = {}
    for name in names:
        for line in result.stderr.splitlines():
            # "   0.0123 ( 45.6%)  PassName" (wall time first).
            match = re.match(r"\s*([0-9.]+)\s+\(\s*[0-9.]+%\)\s+(.*)$", line)
            if match and name in match.group(2):
                times[name] = float(match.group(1))
                break
        else:
            raise SystemExit(f"no timing line for {name} in:\n{result.stderr[-3000:]}")
    return times, result.stderr


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser()
    parser.add_argument("--apipe-opt", default=None)
    parser.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
    parser.add_argument("--counts", default="100,1000,10000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-build", action="store_true")
    args = parser.parse_args()
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(root, "target"))
    if args.apipe_opt is None:
        if not args.no_build:
            print("building an optimized apipe-opt: cargo build --release --bin apipe-opt", flush=True)
            subprocess.run(["cargo", "build", "--release", "--bin", "apipe-opt"], cwd=root, check=True)
        args.apipe_opt = os.path.join(target, "release", "apipe-opt")
    print(f"apipe-opt: {args.apipe_opt}\nmlir-opt: {args.mlir_opt}", flush=True)
    counts = [int(c) for c in args.counts.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "transform.mlir")
        with open(script, "w") as f:
            f.write(TRANSFORM)
        for count in counts:
            path = os.path.join(tmp, f"loops{count}.mlir")
            with open(path, "w") as f:
                f.write(payload(count))
            ours_runs = []
            for _ in range(args.repeat):
                times, stderr = timed(
                    [args.apipe_opt, path, "--apipe-import-nvgpu",
                     "--apipe-software-pipeline=num-stages=3", "--mlir-timing",
                     "-o", os.devnull],
                    ["ApipeImportNvgpu", "ApipeSoftwarePipeline"],
                )
                scheduled = stderr.count("remark: scheduled 3 stages")
                if scheduled != count:
                    raise SystemExit(f"apipe scheduled {scheduled} of {count} loops:\n{stderr[-3000:]}")
                ours_runs.append(times)
            theirs = min(
                timed(
                    [args.mlir_opt, path,
                     f"--transform-preload-library=transform-library-paths={script}",
                     "--transform-interpreter", "--mlir-timing", "-o", os.devnull],
                    ["InterpreterPass"],
                )[0]["InterpreterPass"]
                for _ in range(args.repeat)
            )
            pipeline = min(t["ApipeSoftwarePipeline"] for t in ours_runs)
            both = min(t["ApipeSoftwarePipeline"] + t["ApipeImportNvgpu"] for t in ours_runs)
            rows.append((count, pipeline, both, theirs))
            print(f"{count} loops done", flush=True)
    print(f"{'loops':>6} {'apipe pipeline (s)':>19} {'+ import (s)':>13} {'upstream (s)':>13} "
          f"{'ratio':>6} {'ratio w/ import':>16}")
    for count, pipeline, both, theirs in rows:
        print(f"{count:>6} {pipeline:>19.4f} {both:>13.4f} {theirs:>13.4f} "
              f"{pipeline / theirs:>6.2f} {both / theirs:>16.2f}")
    for (c0, p0, b0, t0), (c1, p1, b1, t1) in zip(rows, rows[1:]):
        print(f"growth {c0}->{c1} loops (x{c1 / c0:.0f}): apipe pipeline x{p1 / p0:.1f}, "
              f"with import x{b1 / b0:.1f}, upstream x{t1 / t0:.1f}")


if __name__ == "__main__":
    main()
