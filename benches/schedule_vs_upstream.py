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
the payload. Each figure is the best of `--repeat` runs:

- `cpu`: the CPU time (user + sys) of the whole process, minus that of the
  same tool parsing, verifying and printing the same input with no pass:
  what the passes cost, printing their larger output included. CPU time,
  not wall time, because the machine may be shared;
- `pipeline cpu`: the same for apipe-software-pipeline alone, on the
  output of apipe-import-nvgpu;
- `wall`: the pass times `--mlir-timing` reports (wall clock of
  ApipeImportNvgpu + ApipeSoftwarePipeline, and of upstream's
  InterpreterPass), which a loaded machine inflates.

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


def timed(command, names=()):
    """Runs `command`; its CPU seconds (user + sys), the wall seconds of the
    passes whose names contain each of `names` (from --mlir-timing), and
    its stderr."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    stderr = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{stderr[-3000:]}")
    times = {}
    for name in names:
        for line in stderr.splitlines():
            # "   0.0123 ( 45.6%)  PassName" (wall time first).
            match = re.match(r"\s*([0-9.]+)\s+\(\s*[0-9.]+%\)\s+(.*)$", line)
            if match and name in match.group(2):
                times[name] = float(match.group(1))
                break
        else:
            raise SystemExit(f"no timing line for {name} in:\n{stderr[-3000:]}")
    return usage.ru_utime + usage.ru_stime, times, stderr


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
    best = lambda runs: min(runs)  # noqa: E731
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "transform.mlir")
        with open(script, "w") as f:
            f.write(TRANSFORM)
        for count in counts:
            path = os.path.join(tmp, f"loops{count}.mlir")
            imported = os.path.join(tmp, f"imported{count}.mlir")
            with open(path, "w") as f:
                f.write(payload(count))
            subprocess.run([args.apipe_opt, path, "--apipe-import-nvgpu", "-o", imported], check=True)
            ours, ours_wall, ours_pipeline, theirs, theirs_wall = [], [], [], [], []
            for _ in range(args.repeat):
                base, _, _ = timed([args.apipe_opt, path, "-o", os.devnull])
                cpu, times, stderr = timed(
                    [args.apipe_opt, path, "--apipe-import-nvgpu",
                     "--apipe-software-pipeline=num-stages=3", "--mlir-timing",
                     "-o", os.devnull],
                    ["ApipeImportNvgpu", "ApipeSoftwarePipeline"],
                )
                scheduled = stderr.count("remark: scheduled 3 stages")
                if scheduled != count:
                    raise SystemExit(f"apipe scheduled {scheduled} of {count} loops:\n{stderr[-3000:]}")
                ours.append(cpu - base)
                ours_wall.append(times["ApipeImportNvgpu"] + times["ApipeSoftwarePipeline"])
                base_imported, _, _ = timed([args.apipe_opt, imported, "-o", os.devnull])
                cpu_pipeline, _, _ = timed(
                    [args.apipe_opt, imported, "--apipe-software-pipeline=num-stages=3",
                     "-o", os.devnull])
                ours_pipeline.append(cpu_pipeline - base_imported)
                base, _, _ = timed([args.mlir_opt, path, "-o", os.devnull])
                cpu, times, _ = timed(
                    [args.mlir_opt, path,
                     f"--transform-preload-library=transform-library-paths={script}",
                     "--transform-interpreter", "--mlir-timing", "-o", os.devnull],
                    ["InterpreterPass"],
                )
                theirs.append(cpu - base)
                theirs_wall.append(times["InterpreterPass"])
            rows.append((count, best(ours), best(ours_pipeline), best(theirs),
                         best(ours_wall), best(theirs_wall)))
            print(f"{count} loops done", flush=True)
    print(f"{'loops':>6} | {'apipe cpu':>9} {'pipeline cpu':>12} {'upstream cpu':>12} "
          f"{'ratio':>6} {'pipeline ratio':>14} | {'apipe wall':>10} {'upstream wall':>13} {'ratio':>6}")
    for count, ours, pipeline, theirs, ours_wall, theirs_wall in rows:
        print(f"{count:>6} | {ours:>9.3f} {pipeline:>12.3f} {theirs:>12.3f} "
              f"{ours / theirs:>6.2f} {pipeline / theirs:>14.2f} | {ours_wall:>10.3f} "
              f"{theirs_wall:>13.3f} {ours_wall / theirs_wall:>6.2f}")
    for r0, r1 in zip(rows, rows[1:]):
        print(f"growth {r0[0]}->{r1[0]} loops (x{r1[0] / r0[0]:.0f}): apipe cpu x{r1[1] / r0[1]:.1f}, "
              f"pipeline cpu x{r1[2] / r0[2]:.1f}, upstream cpu x{r1[3] / r0[3]:.1f}")


if __name__ == "__main__":
    main()
