// Values of the `vector`, `math`, `complex` and `affine` dialects (and
// the views and `memref.dim`) with no memory effects are the same in every
// thread when their operands are (trial 87: a loop bound taken with `vector.extract`
// from a constant vector was taken to differ between threads, and the
// pipeliner's own output got false races; trial 89: the size of a cast of
// an argument). A branch on such a value sends
// every thread the same way, so a copy in one region and a read in the
// other never run at once. The same ops on a thread id still vary: the
// threads may split, and another thread's copy races with the read.
// RUN: not apipe-opt %s --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=error:
// CHECK: check-hazards-uniform-vector-values.mlir:102:12: error: 'memref.load' op reads bytes that another thread's async copy may still be writing
// CHECK: check-hazards-uniform-vector-values.mlir:121:12: error: 'memref.load' op reads bytes that another thread's async copy may still be writing
// CHECK: check-hazards-uniform-vector-values.mlir:157:12: error: 'memref.load' op reads bytes that another thread's async copy may still be writing
gpu.module @k {
  gpu.func @extract_of_a_constant_vector(%A: memref<8xf32>, %q: index, %m: memref<?xf32>) workgroup(%buf: memref<8xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %tid = gpu.thread_id x
    %table = arith.constant dense<[0, 1, 2, 3]> : vector<4xindex>
    %v = vector.extract %table[%q] : index from vector<4xindex>
    %zero = arith.cmpi eq, %v, %c0 : index
    scf.if %zero {
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %x = memref.load %buf[%tid] : memref<8xf32, 3>
    } else {
      %y = memref.load %buf[%c3] : memref<8xf32, 3>
    }
    gpu.barrier
    gpu.return
  }
  gpu.func @math_of_an_argument(%A: memref<8xf32>, %q: index, %m: memref<?xf32>) workgroup(%buf: memref<8xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %tid = gpu.thread_id x
    %table = arith.constant dense<[0, 1, 2, 3]> : vector<4xindex>
    %v = math.absi %q : index
    %zero = arith.cmpi eq, %v, %c0 : index
    scf.if %zero {
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %x = memref.load %buf[%tid] : memref<8xf32, 3>
    } else {
      %y = memref.load %buf[%c3] : memref<8xf32, 3>
    }
    gpu.barrier
    gpu.return
  }
  gpu.func @reduction_and_affine_min(%A: memref<8xf32>, %q: index, %m: memref<?xf32>) workgroup(%buf: memref<8xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %tid = gpu.thread_id x
    %table = arith.constant dense<[0, 1, 2, 3]> : vector<4xindex>
    %b = vector.broadcast %q : index to vector<4xindex>
    %r = vector.reduction <add>, %b : vector<4xindex> into index
    %v = affine.min affine_map<(d0)[s0] -> (d0, s0)>(%r)[%q]
    %zero = arith.cmpi eq, %v, %c0 : index
    scf.if %zero {
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %x = memref.load %buf[%tid] : memref<8xf32, 3>
    } else {
      %y = memref.load %buf[%c3] : memref<8xf32, 3>
    }
    gpu.barrier
    gpu.return
  }
  gpu.func @size_of_an_argument(%A: memref<8xf32>, %q: index, %m: memref<?xf32>) workgroup(%buf: memref<8xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %tid = gpu.thread_id x
    %table = arith.constant dense<[0, 1, 2, 3]> : vector<4xindex>
    %v = memref.dim %m, %c0 : memref<?xf32>
    %zero = arith.cmpi eq, %v, %c0 : index
    scf.if %zero {
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %x = memref.load %buf[%tid] : memref<8xf32, 3>
    } else {
      %y = memref.load %buf[%c3] : memref<8xf32, 3>
    }
    gpu.barrier
    gpu.return
  }
  gpu.func @extract_at_the_thread_id(%A: memref<8xf32>, %q: index, %m: memref<?xf32>) workgroup(%buf: memref<8xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %tid = gpu.thread_id x
    %table = arith.constant dense<[0, 1, 2, 3]> : vector<4xindex>
    %v = vector.extract %table[%tid] : index from vector<4xindex>
    %zero = arith.cmpi eq, %v, %c0 : index
    scf.if %zero {
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %x = memref.load %buf[%tid] : memref<8xf32, 3>
    } else {
      %y = memref.load %buf[%c3] : memref<8xf32, 3>
    }
    gpu.barrier
    gpu.return
  }
  gpu.func @reduction_of_the_thread_id(%A: memref<8xf32>, %q: index, %m: memref<?xf32>) workgroup(%buf: memref<8xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %tid = gpu.thread_id x
    %table = arith.constant dense<[0, 1, 2, 3]> : vector<4xindex>
    %b = vector.broadcast %tid : index to vector<4xindex>
    %v = vector.reduction <add>, %b : vector<4xindex> into index
    %zero = arith.cmpi eq, %v, %c0 : index
    scf.if %zero {
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %x = memref.load %buf[%tid] : memref<8xf32, 3>
    } else {
      %y = memref.load %buf[%c3] : memref<8xf32, 3>
    }
    gpu.barrier
    gpu.return
  }
  gpu.func @size_of_a_cast_of_an_argument(%A: memref<8xf32>, %q: index, %m: memref<?xf32>) workgroup(%buf: memref<8xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %tid = gpu.thread_id x
    %cast = memref.cast %m : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
    %v = memref.dim %cast, %c0 : memref<?xf32, strided<[1], offset: ?>>
    %zero = arith.cmpi eq, %v, %c0 : index
    scf.if %zero {
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %x = memref.load %buf[%tid] : memref<8xf32, 3>
    } else {
      %y = memref.load %buf[%c3] : memref<8xf32, 3>
    }
    gpu.barrier
    gpu.return
  }
  gpu.func @size_of_a_view_sized_by_the_thread_id(%A: memref<8xf32>, %q: index, %m: memref<?xf32>) workgroup(%buf: memref<8xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %tid = gpu.thread_id x
    %sv = memref.subview %m[0] [%tid] [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
    %v = memref.dim %sv, %c0 : memref<?xf32, strided<[1]>>
    %zero = arith.cmpi eq, %v, %c0 : index
    scf.if %zero {
      apipe.copy %A[%tid], %buf[%tid], 1 : memref<8xf32> to memref<8xf32, 3>
      apipe.commit_group
      apipe.wait_group 0
      %x = memref.load %buf[%tid] : memref<8xf32, 3>
    } else {
      %y = memref.load %buf[%c3] : memref<8xf32, 3>
    }
    gpu.barrier
    gpu.return
  }
}
