// Workgroup allocs in a kernel, each with its dealloc: apipe-to-nvgpu (and
// apipe-translate) hoists each alloc into a workgroup attribution and erases
// its deallocs. It once read the erased deallocs afterwards (a use after
// free that crashed now and then, found by fuzzing apipe-translate).
gpu.module @m {
  gpu.func @workgroup_allocs(%a: memref<64xf32>, %ai: memref<64xi32>, %i: index) kernel {
    %b = memref.alloc() {alignment = 64 : i64} : memref<8xf32, #gpu.address_space<workgroup>>
    %c = memref.alloc() : memref<4xi32, 3>
    %d = memref.alloc() : memref<4xf32, 3>
    %p = memref.alloca() : memref<4xf32>
    apipe.copy %a[%i], %b[%i], 4 : memref<64xf32> to memref<8xf32, #gpu.address_space<workgroup>>
    apipe.copy %ai[%i], %c[%i], 4 : memref<64xi32> to memref<4xi32, 3>
    apipe.copy %a[%i], %d[%i], 4 : memref<64xf32> to memref<4xf32, 3>
    apipe.commit_group
    apipe.wait_group 0
    %x = memref.load %p[%i] : memref<4xf32>
    memref.dealloc %b : memref<8xf32, #gpu.address_space<workgroup>>
    memref.dealloc %c : memref<4xi32, 3>
    memref.dealloc %d : memref<4xf32, 3>
    %one = arith.constant 1 : index
    gpu.return
  }
}
