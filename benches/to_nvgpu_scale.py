#!/usr/bin/env python3
"""Scaling of apipe-to-nvgpu with the number of groups in one block. Not a
test: it prints figures.

Generates a kernel with N copies, each followed by `apipe.commit_group`
and `apipe.wait_group 1` in one straight-line block (plus every tenth
group inside an `scf.if`, whose wait names a group across it), and times
`apipe-opt --apipe-to-nvgpu` on it, best of 3. Naming the group a wait
forces complete used to walk back through the block from every wait
(quadratic in N); the shared group analysis names them in one forward
pass (`group_distance::forced_commits`).

    python3 benches/to_nvgpu_scale.py [N ...]   (after cargo build -p apipe-tools;
                                                 APIPE_BIN_DIR overrides target/debug)
"""
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("APIPE_BIN_DIR", os.path.join(ROOT, "target", "debug"))


def kernel(n):
    lines = [
        "gpu.module @m {",
        f"  gpu.func @k(%A: memref<{4 * n}xf32>, %c: i1) workgroup(%buf : memref<{4 * n}xf32, 3>) kernel {{",
    ]
    for i in range(n):
        lines.append(f"    %i{i} = arith.constant {4 * i} : index")
        copy = f"apipe.copy %A[%i{i}], %buf[%i{i}], 4 : memref<{4 * n}xf32> to memref<{4 * n}xf32, 3>"
        if i % 10 == 9:
            lines.append("    scf.if %c {")
            lines.append("      " + copy)
            lines.append("      apipe.commit_group")
            lines.append("      apipe.wait_group 0")
            lines.append("    }")
        else:
            lines.append("    " + copy)
            lines.append("    apipe.commit_group")
            lines.append("    apipe.wait_group 1")
    lines += ["    gpu.return", "  }", "}"]
    return "\n".join(lines) + "\n"


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [1000, 2000, 4000]
    print("groups  seconds (apipe-opt --apipe-to-nvgpu, best of 3)")
    for n in sizes:
        with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
            f.write(kernel(n))
            path = f.name
        best = None
        for _ in range(3):
            start = time.perf_counter()
            subprocess.run([os.path.join(BIN, "apipe-opt"), path, "--apipe-to-nvgpu", "-o", os.devnull], check=True)
            elapsed = time.perf_counter() - start
            best = elapsed if best is None else min(best, elapsed)
        os.unlink(path)
        print("%6d  %.3f" % (n, best))


if __name__ == "__main__":
    main()
