# lit configuration of the apipe test suite (LLVM lit + FileCheck).
#
# Run through `cargo test` (tools/tests/lit.rs), which builds the tools and
# sets APIPE_BIN_DIR; or by hand:
#   APIPE_BIN_DIR=target/debug /usr/lib/llvm-22/bin/lit -v test
import os

import lit.formats

config.name = "apipe"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["Inputs", "lit.cfg.py", "plugin", "CAPI"]
config.test_source_root = os.path.dirname(__file__)

repo_root = os.path.dirname(config.test_source_root)
config.test_exec_root = os.environ.get(
    "APIPE_LIT_OUT", os.path.join(repo_root, "target", "lit")
)

llvm_bin = os.environ.get("APIPE_LLVM_BIN", "/usr/lib/llvm-22/bin")
apipe_bin = os.path.abspath(
    os.environ.get("APIPE_BIN_DIR", os.path.join(repo_root, "target", "debug"))
)
for tool in ["apipe-opt", "apipe-translate", "apipe-run"]:
    if not os.path.exists(os.path.join(apipe_bin, tool)):
        lit_config.fatal(f"{tool} not found in {apipe_bin}; build it or set APIPE_BIN_DIR")

# apipe tools first, then LLVM's FileCheck / not / mlir-opt.
config.environment["PATH"] = os.pathsep.join(
    [apipe_bin, llvm_bin, config.environment.get("PATH", os.environ.get("PATH", ""))]
)
config.substitutions.append(("%apipe_root", repo_root))
config.substitutions.append(
    ("%apipe_irdl", os.path.join(repo_root, "dialects", "apipe", "apipe.irdl.mlir"))
)
# Upstream mlir-opt by full path, so a test says which tool it means.
config.substitutions.append(("%mlir_opt", os.path.join(llvm_bin, "mlir-opt")))

# NVIDIA ptxas: every PTX the suite produces is assembled for sm_80
# and sm_90. Found as apipe-translate finds it: $APIPE_PTXAS, PATH, then the
# project venv that `bash scripts/setup.sh` creates.
import glob
import shutil

ptxas = os.environ.get("APIPE_PTXAS") or shutil.which("ptxas")
if not ptxas:
    candidates = sorted(
        glob.glob(
            os.path.join(
                repo_root, ".venv", "lib", "python3*", "site-packages",
                "nvidia", "cuda_nvcc", "bin", "ptxas",
            )
        )
    )
    ptxas = candidates[-1] if candidates else None
# Required, not optional: a PTX test that silently stops assembling its
# output could never fail.
if not (ptxas and os.path.isfile(ptxas)):
    lit_config.fatal("ptxas not found (set APIPE_PTXAS, or run: bash scripts/setup.sh)")
config.substitutions.append(("%ptxas", ptxas))
