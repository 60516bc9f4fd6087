#!/usr/bin/env python3
"""Runs upstream mlir-opt with the apipe plugin, taking apipe-opt's command line.

    mlir-opt-plugin.py PLUGIN [apipe-opt arguments...]

Upstream mlir-opt 22 builds its `--<pass>` flags from the passes registered
before it parses its command line, and a pass plugin registers its passes
during that parse; so pass flags of plugin passes are not recognized.
`--pass-pipeline` is: this script turns the pass flags, in order, into
`--pass-pipeline='builtin.module(pass{options},...)'` (what mlir-opt does with
its own pass flags) and passes every other argument through. Nothing else is
changed: mlir-opt parses, verifies, runs and prints.
"""

import os
import sys

# mlir-opt's own flags that take no pass name (the rest of `-x`/`--x` are
# pass flags).
TOOL_FLAGS = (
    "o", "split-input-file", "verify-diagnostics", "allow-unregistered-dialect",
    "pass-pipeline", "verify-each", "help", "version", "h",
)


def main(argv):
    plugin, args = argv[1], argv[2:]
    mlir_opt = os.environ.get("APIPE_MLIR_OPT", "/usr/lib/llvm-22/bin/mlir-opt")
    out = [mlir_opt, f"--load-dialect-plugin={plugin}", f"--load-pass-plugin={plugin}"]
    passes = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "-" or not arg.startswith("-") or arg == "--":
            out.append(arg)
            continue
        name, eq, value = arg.lstrip("-").partition("=")
        if name in TOOL_FLAGS or name.startswith("mlir-"):
            out.append(arg)
            if name in ("o", "pass-pipeline") and not eq and i < len(args):
                out.append(args[i])
                i += 1
            continue
        passes.append(f"{name}{{{value}}}" if eq else name)
    if passes:
        out.append(f"--pass-pipeline=builtin.module({','.join(passes)})")
    os.execv(mlir_opt, out)


if __name__ == "__main__":
    main(sys.argv)
