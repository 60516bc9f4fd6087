#!/usr/bin/env python3
"""Static code quality of each form of synchronization (docs/mbarrier.md),
per main-loop iteration of each example. Not a test: it prints figures.

For each example, apipe-software-pipeline in token form (scheduled with
the stage count of NUM_STAGES: the examples carry no stage annotations;
sgemm's own `apipe.num_stages = 3` wins), then
apipe-translate with --sync=counting and --sync=mbarrier, for sm_80 and
sm_90:
1. in the main loop (the largest range from a label to a branch back to it
   that holds the loop's wait: `cp.async.wait_group`, or the mbarrier wait),
   the static count of `bar.sync`, `cp.async` copies, `cp.async` group ops
   (`commit_group`, `wait_group`), mbarrier ops (`cp.async.mbarrier.arrive`,
   `mbarrier.test_wait` / `try_wait`) and all instructions;
2. `ptxas -v` registers and shared memory bytes of the kernel
   (`apipe-translate --to-cubin --resource-usage`).

    python3 benches/sync_forms.py   (after cargo build -p apipe-tools)
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "debug")
EXAMPLES = ["sgemm", "copy_bw", "stream_sum"]
# The stages each example is scheduled with (as its run test under
# test/Emulation does).
NUM_STAGES = {"sgemm": 3, "copy_bw": 3, "stream_sum": 2}
WAITS = ("cp.async.wait_group", "mbarrier.test_wait", "mbarrier.try_wait")


def run(args, **kwargs):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kwargs)


def main_loop(ptx):
    """The largest range from a label to a branch back to it that holds a
    wait; the inline-assembly wait loops (LAB_WAIT) are not labels of
    LLVM's and are skipped as loops, their instructions counted."""
    lines = ptx.splitlines()
    labels, best = {}, None
    for index, line in enumerate(lines):
        label = re.match(r"^(\$L__\w+):", line)
        if label:
            labels[label.group(1)] = index
        branch = re.search(r"bra(?:\.uni)?\s+(\$L__\w+);", line)
        if branch and labels.get(branch.group(1), index) < index:
            start = labels[branch.group(1)]
            if any(w in l for l in lines[start:index + 1] for w in WAITS):
                if best is None or index - start > best[1] - best[0]:
                    best = (start, index)
    if best is None:
        return []
    body = [l.strip() for l in lines[best[0]:best[1] + 1]]
    return [l for l in body if l.endswith(";") and not l.startswith(".")]


def counts(loop):
    def n(pattern):
        return sum(1 for l in loop if re.match(pattern, l))
    return {
        "bar.sync": n(r"bar\.sync"),
        "cp.async": n(r"cp\.async\.c[ag]\."),
        "groups": n(r"cp\.async\.(commit_group|wait_group)"),
        "mbarrier": n(r"(cp\.async\.mbarrier\.arrive|mbarrier\.(test_wait|try_wait))"),
        "instrs": len(loop),
    }


def main():
    print(f"{'example':11s} {'form':9s} {'sm':5s} | {'bar.sync':>8s} {'cp.async':>8s} "
          f"{'groups':>6s} {'mbarrier':>8s} {'instrs':>6s} | {'regs':>4s} {'smem B':>7s}")
    with tempfile.TemporaryDirectory() as tmp:
        for example in EXAMPLES:
            tokens = os.path.join(tmp, f"{example}.mlir")
            with open(tokens, "w") as f:
                f.write(run([os.path.join(BIN, "apipe-opt"),
                             os.path.join(ROOT, "examples", f"{example}.mlir"),
                             f"--apipe-software-pipeline=sync=tokens num-stages={NUM_STAGES[example]}"]).stdout)
            for form in ["counting", "mbarrier"]:
                for sm in ["80", "90"]:
                    translate = [os.path.join(BIN, "apipe-translate"), tokens, f"--sm={sm}",
                                 f"--sync={form}"]
                    c = counts(main_loop(run(translate).stdout))
                    usage = run(translate + ["--to-cubin", "--resource-usage", "-o",
                                             os.path.join(tmp, "k.cubin")]).stdout
                    m = re.search(r"registers (\d+),.* shared memory (\d+) bytes", usage)
                    print(f"{example:11s} {form:9s} sm_{sm} | {c['bar.sync']:8d} {c['cp.async']:8d} "
                          f"{c['groups']:6d} {c['mbarrier']:8d} {c['instrs']:6d} | "
                          f"{m.group(1):>4s} {m.group(2):>7s}")


if __name__ == "__main__":
    sys.exit(main())
