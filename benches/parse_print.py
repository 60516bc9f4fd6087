#!/usr/bin/env python3
"""Parse + verify + print: apipe-opt against upstream mlir-opt with the
apipe plugin, on the same large file of pipelined kernels, as a ratio in one
run (README, "Benchmarks"). Not a test: it prints figures.

1. The input: each example kernel (examples/sgemm.mlir, copy_bw.mlir,
   stream_sum.mlir) pipelined by `apipe-opt --apipe-software-pipeline` with
   num-stages 2, 3 and 4, in counting and in token form; each result becomes
   a nested `module @mN` (its own symbol table, so the copies need no
   renaming), repeated until the file has at least `--lines` lines (36,000
   by default). Written to target/bench/parse_print.mlir.
2. The two commands, with no pass, output to /dev/null:
     apipe-opt FILE -o /dev/null
       (parse, the ODS verifier, the apipe semantic verifier, print)
     mlir-opt --load-dialect-plugin=libApipePlugin.so FILE -o /dev/null
       (parse, the ODS verifier, print)
   run alternately `--repeat` times; the best (minimum) wall time and CPU
   time (user + system) of each, since the machine is shared, and their
   ratios.
3. Both outputs are compared once (they must print the same text).

    python3 benches/parse_print.py [--repeat N] [--lines N] [--bin-dir DIR]

The binaries: apipe-opt from `--bin-dir` (default target/release when it
holds apipe-opt, else target/debug; build it with
`cargo build --release -p apipe-tools --bin apipe-opt`); the plugin from
`bash scripts/build-plugin.sh` (target/plugin/libApipePlugin.so).
"""
import argparse
import os
import re
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLVM = os.environ.get("APIPE_LLVM_BIN", "/usr/lib/llvm-22/bin")
EXAMPLES = ["sgemm", "copy_bw", "stream_sum"]


def run(args, **kwargs):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kwargs)


def pipelined_modules(apipe_opt):
    """Step 1: the pipelined examples, each as the text of one module."""
    modules = []
    for example in EXAMPLES:
        path = os.path.join(ROOT, "examples", example + ".mlir")
        for stages in (2, 3, 4):
            for sync in ("counting", "tokens"):
                text = run([
                    apipe_opt, path,
                    f"--apipe-software-pipeline=num-stages={stages} sync={sync}",
                ]).stdout
                modules.append(text.strip())
    return modules


def nest(module, name):
    """`module attributes {...} {` becomes `module @name attributes {...} {`."""
    head, rest = module.split("\n", 1)
    if not re.match(r"^module( attributes \{.*\})? \{$", head):
        sys.exit(f"parse_print: unexpected first line {head!r}")
    return head.replace("module", f"module @{name}", 1) + "\n" + rest


def write_input(apipe_opt, lines, path):
    modules = pipelined_modules(apipe_opt)
    parts, count, index = ["module {"], 1, 0
    while count < lines:
        text = nest(modules[index % len(modules)], f"m{index}")
        parts.append(text)
        count += text.count("\n") + 1
        index += 1
    parts.append("}")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("\n".join(parts) + "\n")
    return count + 1, index


def timed(command):
    """Wall and CPU (user + system) seconds of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--lines", type=int, default=36000)
    parser.add_argument("--bin-dir")
    args = parser.parse_args()
    bin_dir = args.bin_dir
    if bin_dir is None:
        release = os.path.join(ROOT, "target", "release")
        has_release = os.path.isfile(os.path.join(release, "apipe-opt"))
        bin_dir = release if has_release else os.path.join(ROOT, "target", "debug")
    apipe_opt = os.path.join(bin_dir, "apipe-opt")
    plugin = os.path.join(ROOT, "target", "plugin", "libApipePlugin.so")
    if not os.path.isfile(plugin):
        sys.exit("parse_print: no plugin; run: bash scripts/build-plugin.sh")
    path = os.path.join(ROOT, "target", "bench", "parse_print.mlir")
    lines, modules = write_input(apipe_opt, args.lines, path)
    generic = run([apipe_opt, path, "--mlir-print-op-generic"]).stdout
    ops = len(re.findall(r'^\s*(?:%[^=]*= )?"[a-z_]+\.', generic, re.M))
    apipe = [apipe_opt, path, "-o", "/dev/null"]
    upstream = [os.path.join(LLVM, "mlir-opt"), f"--load-dialect-plugin={plugin}", path,
                "-o", "/dev/null"]
    # Step 3 first (it also warms the page cache).
    same = run(apipe[:2]).stdout == run(upstream[:3]).stdout
    times = {"apipe-opt": [], "mlir-opt + plugin": []}
    for _ in range(args.repeat):
        times["apipe-opt"].append(timed(apipe))
        times["mlir-opt + plugin"].append(timed(upstream))
    wall = {name: min(w for w, _ in samples) for name, samples in times.items()}
    cpu = {name: min(c for _, c in samples) for name, samples in times.items()}
    print(f"input: {os.path.relpath(path, ROOT)}: {lines} lines, {modules} pipelined "
          f"modules, {ops} ops")
    print(f"apipe-opt: {os.path.relpath(apipe_opt, ROOT)}; plugin: "
          f"{os.path.relpath(plugin, ROOT)}; best of {args.repeat} "
          f"(load average {os.getloadavg()[0]:.1f})")
    print(f"  {'':18} {'wall ms':>9} {'cpu ms':>9}")
    for name in times:
        print(f"  {name:<18} {wall[name] * 1000:9.1f} {cpu[name] * 1000:9.1f}")
    print(f"  ratio apipe-opt / mlir-opt: {wall['apipe-opt'] / wall['mlir-opt + plugin']:.2f}x "
          f"wall, {cpu['apipe-opt'] / cpu['mlir-opt + plugin']:.2f}x cpu")
    print(f"  same output: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
