// apipe-translate errors: located where the IR is at fault, plain otherwise.
//
// RUN: not apipe-translate %s --sm=75 2>&1 | FileCheck %s --check-prefix=SM75
// RUN: not apipe-translate %s --sm=sm_70 2>&1 | FileCheck %s --check-prefix=SM70
// RUN: not apipe-translate %s --sm=100 2>&1 | FileCheck %s --check-prefix=SM100
// RUN: not apipe-translate %s --sm=90 --ptx=70 2>&1 | FileCheck %s --check-prefix=OLDPTX
// RUN: not apipe-translate %s --sm=80 --ptx=89 2>&1 | FileCheck %s --check-prefix=PTX89 --implicit-check-not=warning --implicit-check-not=recognized
// RUN: not apipe-translate %s --sm=90 --ptx=100 2>&1 | FileCheck %s --check-prefix=PTX100 --implicit-check-not=warning --implicit-check-not=recognized
// RUN: env APIPE_PTXAS=%t.no-such-ptxas not apipe-translate %s --to-cubin -o %t.cubin 2>&1 | FileCheck %s --check-prefix=NOPTXAS
// RUN: not apipe-translate %s --to-ptx --to-llvmir 2>&1 | FileCheck %s --check-prefix=TWOTARGETS
// RUN: not apipe-translate %s --to-ptx --resource-usage 2>&1 | FileCheck %s --check-prefix=USAGE

// LLVM 22 knows no PTX ISA 8.9 or 10.0 (it would warn, ignore '+ptx89' and
// print .version 7.0); the table is in lowering/src/ptx.rs.
// PTX89: error: unsupported --ptx '89'; for sm_80 expected one of 70, 71, 72, 73, 74, 75, 76, 77, 78, 80, 81, 82, 83, 84, 85, 86, 87, 88, 90 (the PTX ISA versions LLVM 22 knows)
// PTX100: error: unsupported --ptx '100'; for sm_90 expected one of 78, 80, 81, 82, 83, 84, 85, 86, 87, 88, 90 (the PTX ISA versions LLVM 22 knows)
// SM75: translate-invalid.mlir:[[@LINE+13]]:5: error: cp.async needs sm_80 or newer; --sm is sm_75
// SM75-NEXT: apipe.copy
// SM70: translate-invalid.mlir:[[@LINE+11]]:5: error: cp.async needs sm_80 or newer; --sm is sm_70
// SM100: error: unsupported --sm '100'; expected one of 80, 86, 89, 90, 90a
// OLDPTX: error: --ptx=70 is too old for sm_90: it needs PTX ISA 7.8 or newer
// NOPTXAS: error: ptxas not found on PATH or in the project venv (.venv/lib/python3*/site-packages/nvidia/cuda_nvcc/bin); install it with 'bash scripts/setup.sh'
// TWOTARGETS: error: the argument '--to-ptx' cannot be used with '--to-llvmir'
// USAGE: error: --resource-usage needs --to-cubin
gpu.module @kernels {
  gpu.func @copy_one(%src: memref<1024xf32>) workgroup(%buf: memref<512xf32, 3>) kernel {
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    apipe.copy %src[%lane], %buf[%lane], 4 {bypass_l1} : memref<1024xf32> to memref<512xf32, 3>
    apipe.commit_group
    apipe.wait_group 0
    gpu.return
  }
}
