// apipe-mbarrier-to-nvvm refuses a ring that does not fit the shared memory
// a block may use on the target (8 bytes per slot; the opt-in maximum:
// 163 KiB on sm_80, 99 KiB on sm_86, 227 KiB on sm_90), at its
// apipe.mbarrier_init, and changes nothing. A fuzz find: a ring of 2^40
// slots made the pass emit one nvvm.mbarrier.init per slot, and
// apipe-translate never returned.
// RUN: apipe-opt %s --split-input-file --pass-pipeline='builtin.module(apipe-mbarrier-to-nvvm{sm=80})' --verify-diagnostics
// The first module through apipe-translate (it returns at once):
// RUN: sed '/^\/\/ -----/q' %s | not apipe-translate - --sm=80 2>&1 | FileCheck %s --check-prefix=TRANSLATE
// TRANSLATE: <stdin>:[[# @LINE + 11]]:5: error: 'apipe.mbarrier_init' op initialises a ring of 1099511627776 slots (8796093022208 bytes of shared memory): more than the 166912 bytes a block may use on sm_80
// On sm_90 the largest ring that fits is 29,056 slots (8 bytes each):
// RUN: not apipe-opt %s --split-input-file --pass-pipeline='builtin.module(apipe-mbarrier-to-nvvm{sm=90})' 2>&1 | FileCheck %s --check-prefix=SM90
// SM90: 'apipe.mbarrier_init' op initialises a ring of 1099511627776 slots (8796093022208 bytes of shared memory): more than the 232448 bytes a block may use on sm_90
// SM90: 'apipe.mbarrier_init' op initialises a ring of 29057 slots (232456 bytes of shared memory): more than the 232448 bytes a block may use on sm_90

module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @huge() workgroup(%ring: memref<1099511627776xi64, 3>) kernel {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'apipe.mbarrier_init' op initialises a ring of 1099511627776 slots (8796093022208 bytes of shared memory): more than the 166912 bytes a block may use on sm_80}}
    apipe.mbarrier_init %ring, %c1 : memref<1099511627776xi64, 3>
    gpu.return
  }
}
}

// -----

module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @one_too_many() workgroup(%ring: memref<29057xi64, 3>) kernel {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'apipe.mbarrier_init' op initialises a ring of 29057 slots (232456 bytes of shared memory): more than the 166912 bytes a block may use on sm_80}}
    apipe.mbarrier_init %ring, %c1 : memref<29057xi64, 3>
    gpu.return
  }
}
}

