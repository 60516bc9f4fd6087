#!/usr/bin/env python3
"""Build-time cost of apipe's C++ (README, "Benchmarks"). Not a test: it
prints figures.

The C++ is built by two build scripts: `dialects/build.rs` (mlir-tblgen
-gen-dialect-*/-gen-op-*/-gen-typedef-* and the IRDL and doc output, then
the dialect and C API shims compiled with the `cc` crate and linked as
libApipeDialectCpp) and `passes/build.rs` (RustPass.cpp, the wrapper that
puts Rust passes in MLIR's registry). This script makes both run again (it
touches their C++ sources, so only the mtimes change), rebuilds
`apipe-passes` with `cargo build --timings`, and prints, from cargo's
timing report, the wall time of each build-script run next to the Rust
compilation of the same crates:

    python3 benches/cpp_build_time.py [--release]

Run it on an otherwise idle machine: the figures are wall times.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = ["dialects/cpp/*.cpp", "dialects/capi/*.cpp", "passes/cpp/*.cpp"]
CRATES = ["apipe-dialect", "apipe-passes"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--release", action="store_true")
    args = parser.parse_args()
    for pattern in SOURCES:
        for path in glob.glob(os.path.join(ROOT, pattern)):
            os.utime(path)
    command = ["cargo", "build", "-p", "apipe-passes", "--timings"]
    if args.release:
        command.append("--release")
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    report = os.path.join(ROOT, "target", "cargo-timings", "cargo-timing.html")
    text = open(report).read()
    match = re.search(r"const UNIT_DATA = (\[.*?\]);\n", text, re.S)
    if not match:
        sys.exit(f"cpp_build_time: no UNIT_DATA in {report}")
    units = json.loads(match.group(1))
    print(f"{' '.join(command)} after touching the C++ sources; wall seconds:")
    total = 0.0
    for crate in CRATES:
        for unit in units:
            # Units with no time were fresh (not rebuilt).
            if unit["name"] != crate or unit["duration"] <= 0:
                continue
            if unit.get("mode") == "run-custom-build":
                kind = "C++: build script run (mlir-tblgen, cc, link)"
                total += unit["duration"]
            elif "build-script" in unit.get("target", ""):
                kind = "build script compile"
            else:
                kind = "Rust crate"
            print(f"  {crate:<14} {kind:<46} {unit['duration']:7.1f}")
    load = os.getloadavg()[0]
    print(f"  (load average {load:.1f} at the end)")
    print(f"  C++ in total: {total:.1f} s (once per build configuration: the tools' build "
          f"and the plugin's, scripts/build-plugin.sh)")


if __name__ == "__main__":
    main()
