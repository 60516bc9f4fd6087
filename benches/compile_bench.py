#!/usr/bin/env python3
"""Compile-time and code-quality benchmark of the GPU path (README, "Benchmarks"). Not a test: it prints figures.

For each example (the hand-pipelined counting form in examples/pipelined/,
until apipe-software-pipeline is merged):
1. compile time split into apipe passes / upstream MLIR lowering / LLVM
   codegen (translation, O3, PTX), the best of `--repeat` runs of
   `apipe-translate --stage-timing` (the minimum: the machine is shared);
2. `ptxas -v` registers, spills and shared memory for sm_80 and sm_90
   (`apipe-translate --to-cubin --resource-usage`);
3. the PTX instruction count of the pipelined main loop (the outermost loop
   that holds a `cp.async.wait_group`), apipe (inkwell, LLVM O3) versus the
   same kernel exported to nvgpu (`apipe-opt --apipe-to-nvgpu`) and compiled
   by upstream `mlir-opt` + `mlir-translate` + `llc -O3` (static count;
   loops found from llc's block comments, or from labels and back
   branches in inkwell's PTX, which has no comments;
   "local" counts the upstream loop's local-memory accesses: without
   LLVM's middle-end O3, llc keeps arrays such as sgemm's accumulators in
   local memory).

    python3 benches/compile_bench.py [--repeat N]   (after cargo build)
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "debug")
LLVM = os.environ.get("APIPE_LLVM_BIN", "/usr/lib/llvm-22/bin")
EXAMPLES = ["sgemm", "copy_bw", "stream_sum"]
sys.path.insert(0, ROOT)


def upstream_lowering():
    """The upstream passes of apipe's pipeline (lowering/src/gpu_pipeline.rs)."""
    text = open(os.path.join(ROOT, "lowering", "src", "gpu_pipeline.rs")).read()
    match = re.search(r'UPSTREAM_LOWERING: &str = "(.*?)";', text, re.S)
    return re.sub(r"\\\s*", "", match.group(1))


def run(args, **kwargs):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kwargs)


def stage_times(path, repeat):
    samples = {"apipe passes": [], "upstream lowering": [], "LLVM codegen": []}
    for _ in range(repeat):
        err = run([os.path.join(BIN, "apipe-translate"), path, "--stage-timing", "-o", os.devnull]).stderr
        for name in samples:
            samples[name].append(float(re.search(name + r" ([0-9.]+) ms", err).group(1)))
    return {name: min(values) for name, values in samples.items()}


def main_loop(ptx):
    """The instructions of the outermost loop that holds a
    cp.async.wait_group, found from the loop comments LLVM's AsmPrinter
    writes on each block label ("Loop Header: Depth=1", "in Loop:
    Header=BB0_4 Depth=1", "Parent Loop BB0_4 Depth=1")."""
    blocks = []  # (outermost loop header or None, instruction lines)
    for line in ptx.splitlines():
        label = re.match(r"^\$L__(BB\d+_\d+):(.*)", line)
        if label:
            name, comment = label.groups()
            header = None
            if re.search(r"Loop Header: Depth=1", comment):
                header = name
            else:
                outer = re.search(r"(?:Header=|Parent Loop )(BB\d+_\d+) Depth=1", comment)
                header = outer.group(1) if outer else None
            blocks.append((header, []))
        elif blocks and line.strip().endswith(";") and not line.strip().startswith("."):
            blocks[-1][1].append(line.strip())
    headers = {h for h, body in blocks if h and any("cp.async.wait_group" in l for l in body)}
    if headers:
        return [l for h, body in blocks if h in headers for l in body]
    return loop_by_back_branch(ptx)


def loop_by_back_branch(ptx):
    """Without loop comments (inkwell's PTX has none): the largest range
    from a label to a branch back to it that holds a cp.async.wait_group."""
    lines = ptx.splitlines()
    labels, best = {}, None
    for index, line in enumerate(lines):
        label = re.match(r"^(\$L__\w+):", line)
        if label:
            labels[label.group(1)] = index
        branch = re.search(r"bra(?:\.uni)?\s+(\$L__\w+);", line)
        if branch and labels.get(branch.group(1), index) < index:
            start = labels[branch.group(1)]
            if any("cp.async.wait_group" in l for l in lines[start:index + 1]):
                if best is None or index - start > best[1] - best[0]:
                    best = (start, index)
    if best is None:
        return []
    body = [l.strip() for l in lines[best[0]:best[1] + 1]]
    return [l for l in body if l.endswith(";") and not l.startswith(".")]


def upstream_ptx(path, tmp):
    nvgpu = run([os.path.join(BIN, "apipe-opt"), path, "--apipe-to-nvgpu"]).stdout
    lowered = run(
        [os.path.join(LLVM, "mlir-opt"), f"--pass-pipeline=builtin.module(gpu.module({upstream_lowering()}))"],
        input=nvgpu,
    ).stdout
    # mlir-translate translates a builtin.module: unwrap the gpu.module.
    lines = lowered.rstrip().splitlines()
    start = next(i for i, l in enumerate(lines) if "gpu.module" in l)
    module = "module {\n" + "\n".join(lines[start + 1:-2]) + "\n}\n"
    ll = run([os.path.join(LLVM, "mlir-translate"), "--mlir-to-llvmir"], input=module).stdout
    ll_path = os.path.join(tmp, "upstream.ll")
    open(ll_path, "w").write(ll)
    return run([os.path.join(LLVM, "llc"), "-O3", "-march=nvptx64", "-mcpu=sm_80", "-mattr=+ptx70", ll_path, "-o", "-"]).stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    print(f"{'example':11s} {'apipe ms':>9s} {'upstream ms':>12s} {'codegen ms':>11s} | "
          f"{'sm':5s} {'regs':>4s} {'spill st/ld':>11s} {'smem B':>7s} | {'loop instrs apipe/upstream':>30s}")
    with tempfile.TemporaryDirectory() as tmp:
        for example in EXAMPLES:
            path = os.path.join(ROOT, "examples", "pipelined", f"{example}.mlir")
            times = stage_times(path, args.repeat)
            ours = run([os.path.join(BIN, "apipe-translate"), path, "--sm=80"]).stdout
            theirs = upstream_ptx(path, tmp)
            ours_loop, theirs_loop = main_loop(ours), main_loop(theirs)
            local = sum(1 for l in theirs_loop if ".local" in l)
            loop = f"{len(ours_loop)}/{len(theirs_loop)} ({local} local)"
            for i, sm in enumerate(["80", "90"]):
                usage = run([os.path.join(BIN, "apipe-translate"), path, f"--sm={sm}", "--to-cubin",
                             "--resource-usage", "-o", os.path.join(tmp, "k.cubin")]).stdout
                m = re.search(r"registers (\d+), spill stores (\d+) bytes, spill loads (\d+) bytes, "
                              r"shared memory (\d+) bytes", usage)
                head = (f"{example:11s} {times['apipe passes']:9.3f} {times['upstream lowering']:12.3f} "
                        f"{times['LLVM codegen']:11.3f}") if i == 0 else " " * 47
                tail = f"{loop:>30s}" if i == 0 else ""
                print(f"{head} | sm_{sm} {m.group(1):>4s} {m.group(2) + '/' + m.group(3):>11s} "
                      f"{m.group(4):>7s} | {tail}")


if __name__ == "__main__":
    main()
