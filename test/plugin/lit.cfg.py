# lit configuration of the plugin suite: a real subset of the apipe suite
# (at least one test per pass, the dialect's syntax, diagnostics) run through
# Debian's upstream mlir-opt with libApipePlugin.so loaded instead of
# apipe-opt, and the C API embedding test (test/CAPI).
#
# Run through `cargo test` (tools/tests/plugin.rs), which builds the plugin
# (scripts/build-plugin.sh); or by hand:
#   APIPE_PLUGIN=$(bash scripts/build-plugin.sh) APIPE_BIN_DIR=target/debug \
#     /usr/lib/llvm-22/bin/lit -v test/plugin
import os
import sys

config.name = "apipe-plugin"
config.suffixes = [".mlir", ".c"]
config.test_source_root = os.path.dirname(os.path.dirname(__file__))
repo_root = os.path.dirname(config.test_source_root)
config.test_exec_root = os.environ.get(
    "APIPE_LIT_OUT", os.path.join(repo_root, "target", "lit-plugin")
)

# The subset, relative to test/. Each runs every RUN line as written; only
# `apipe-opt` means upstream mlir-opt with the plugin here. Left out: tests
# of errors that apipe-opt's semantic verifier reports right after parsing
# (mlir-opt runs the ODS verifier there; apipe passes run the semantic one
# after themselves), tests of apipe-opt's own command line, and
# Analysis/check-hazards-invalid.mlir, which expects the same note twice on
# one line (one per error that cites the copy): upstream's
# --verify-diagnostics matches both notes to the first expectation.
SUBSET = {
    "Dialect/ops.mlir",
    "Dialect/generic-form.mlir",
    "Transforms/make-sync.mlir",
    "Transforms/counting-to-tokens.mlir",
    "Transforms/tokens-to-counting.mlir",
    "Transforms/tokens-to-counting-invalid.mlir",
    "Transforms/counting-tokens-roundtrip.mlir",
    "Transforms/merge-queues.mlir",
    "Transforms/software-pipeline.mlir",
    "Transforms/software-pipeline-schedule.mlir",
    "Transforms/software-pipeline-budget.mlir",
    "Transforms/tokens-to-mbarrier.mlir",
    "Transforms/select-sync.mlir",
    "Transforms/upstream-passes.mlir",
    "Analysis/check-hazards.mlir",
    "Analysis/check-hazards-upstream.mlir",
    "Analysis/check-hazards-effects.mlir",
    "Conversion/import-nvgpu.mlir",
    "Conversion/to-nvgpu.mlir",
    "Conversion/to-emulation.mlir",
    "CAPI/embed.c",
}


# In a module of its own: lit's worker processes unpickle the format.
sys.path.insert(0, os.path.dirname(__file__))
from subset_format import Subset  # noqa: E402

config.test_format = Subset(SUBSET)

plugin = os.environ.get("APIPE_PLUGIN") or os.path.join(
    repo_root, "target", "plugin", "libApipePlugin.so"
)
if not os.path.isfile(plugin):
    lit_config.fatal(f"{plugin} not found; run: bash scripts/build-plugin.sh")
plugin_dir = os.path.dirname(plugin)

llvm_bin = os.environ.get("APIPE_LLVM_BIN", "/usr/lib/llvm-22/bin")
llvm_prefix = os.path.dirname(llvm_bin)
apipe_bin = os.path.abspath(
    os.environ.get("APIPE_BIN_DIR", os.path.join(repo_root, "target", "debug"))
)
config.environment["PATH"] = os.pathsep.join(
    [apipe_bin, llvm_bin, config.environment.get("PATH", os.environ.get("PATH", ""))]
)
config.environment["APIPE_MLIR_OPT"] = os.path.join(llvm_bin, "mlir-opt")

wrapper = os.path.join(os.path.dirname(__file__), "mlir-opt-plugin.py")
# `apipe-opt` as a command word (not inside a file name).
config.substitutions.append(
    (r"(?<![\w./%-])apipe-opt(?![\w.-])", f"python3 {wrapper} {plugin}")
)
config.substitutions.append(("%apipe_root", repo_root))
config.substitutions.append(("%plugin_dir", plugin_dir))
config.substitutions.append(("%llvm_prefix", llvm_prefix))
config.substitutions.append(("%mlir_opt", os.path.join(llvm_bin, "mlir-opt")))
config.substitutions.append(("%clang", os.path.join(llvm_bin, "clang")))
