// End to end: loops whose bounds sit at the edges of the 64-bit index
// range (negative lower bounds, a step larger than the range, bounds next to
// i64::MAX and i64::MIN, a span ub - lb above i64::MAX, unsigned loops whose
// bounds are negative as signed numbers), with static and dynamic bounds:
// the pipelined program under apipe-run in every completion mode prints what
// apipe-make-sync of the input prints. Iteration k stores A[4k + 1] at
// out[k], k = (iv - lb) / step, so the output shows exactly which iterations
// ran. (No last iteration here has iv + step past the index range: the
// reference, the input loop lowered by scf-to-cf, would wrap there.)
// RUN: apipe-opt %s --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline | apipe-run - --completion=random:1 | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="sync=tokens" | apipe-run - --completion=random:2 | FileCheck %s
// The token form through apipe-tokens-to-mbarrier (docs/mbarrier.md) prints the same:
// RUN: apipe-opt %s --apipe-software-pipeline="sync=tokens" | apipe-opt --apipe-tokens-to-mbarrier | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="sync=tokens" | apipe-opt --apipe-tokens-to-mbarrier | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %s --apipe-software-pipeline="sync=tokens" | apipe-opt --apipe-tokens-to-mbarrier | apipe-run - --completion=random:2 | FileCheck %s

func.func private @printMemrefF32(memref<*xf32>)

// Static: [-7, 5) step 4: 3 iteration(s).
func.func @static_negative_lower_bound(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %lb = arith.constant -7 : index
  %ub = arith.constant 5 : index
  %step = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %iv = %lb to %ub step %step {
    %d = arith.subi %iv, %lb {apipe.stage = 0 : i64} : index
    %k = arith.divui %d, %step {apipe.stage = 0 : i64} : index
    %off = arith.muli %k, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%k] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  memref.dealloc %buf : memref<4xf32>
  return
}

func.func @dynamic_negative_lower_bound(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %lb: index, %ub: index, %step: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %iv = %lb to %ub step %step {
    %d = arith.subi %iv, %lb {apipe.stage = 0 : i64} : index
    %k = arith.divui %d, %step {apipe.stage = 0 : i64} : index
    %off = arith.muli %k, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%k] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  memref.dealloc %buf : memref<4xf32>
  return
}

// Static: [3, 5) step 100: 1 iteration(s).
func.func @static_step_larger_than_range(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %lb = arith.constant 3 : index
  %ub = arith.constant 5 : index
  %step = arith.constant 100 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %iv = %lb to %ub step %step {
    %d = arith.subi %iv, %lb {apipe.stage = 0 : i64} : index
    %k = arith.divui %d, %step {apipe.stage = 0 : i64} : index
    %off = arith.muli %k, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%k] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  memref.dealloc %buf : memref<4xf32>
  return
}

func.func @dynamic_step_larger_than_range(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %lb: index, %ub: index, %step: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %iv = %lb to %ub step %step {
    %d = arith.subi %iv, %lb {apipe.stage = 0 : i64} : index
    %k = arith.divui %d, %step {apipe.stage = 0 : i64} : index
    %off = arith.muli %k, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%k] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  memref.dealloc %buf : memref<4xf32>
  return
}

// Static: [9223372036854775797, 9223372036854775803) step 2: 3 iteration(s).
func.func @static_near_index_max(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %lb = arith.constant 9223372036854775797 : index
  %ub = arith.constant 9223372036854775803 : index
  %step = arith.constant 2 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %iv = %lb to %ub step %step {
    %d = arith.subi %iv, %lb {apipe.stage = 0 : i64} : index
    %k = arith.divui %d, %step {apipe.stage = 0 : i64} : index
    %off = arith.muli %k, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%k] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  memref.dealloc %buf : memref<4xf32>
  return
}

func.func @dynamic_near_index_max(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %lb: index, %ub: index, %step: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %iv = %lb to %ub step %step {
    %d = arith.subi %iv, %lb {apipe.stage = 0 : i64} : index
    %k = arith.divui %d, %step {apipe.stage = 0 : i64} : index
    %off = arith.muli %k, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%k] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  memref.dealloc %buf : memref<4xf32>
  return
}

// Static: [-9223372036854775808, -9223372036854775799) step 4: 3 iteration(s).
func.func @static_near_index_min(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %lb = arith.constant -9223372036854775808 : index
  %ub = arith.constant -9223372036854775799 : index
  %step = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %iv = %lb to %ub step %step {
    %d = arith.subi %iv, %lb {apipe.stage = 0 : i64} : index
    %k = arith.divui %d, %step {apipe.stage = 0 : i64} : index
    %off = arith.muli %k, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%k] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  memref.dealloc %buf : memref<4xf32>
  return
}

func.func @dynamic_near_index_min(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %lb: index, %ub: index, %step: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %iv = %lb to %ub step %step {
    %d = arith.subi %iv, %lb {apipe.stage = 0 : i64} : index
    %k = arith.divui %d, %step {apipe.stage = 0 : i64} : index
    %off = arith.muli %k, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%k] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  memref.dealloc %buf : memref<4xf32>
  return
}

// Static: [-9223372036854775803, 4611686018427387893) step 4611686018427387904: 3 iteration(s).
func.func @static_span_over_index_max(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %lb = arith.constant -9223372036854775803 : index
  %ub = arith.constant 4611686018427387893 : index
  %step = arith.constant 4611686018427387904 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %iv = %lb to %ub step %step {
    %d = arith.subi %iv, %lb {apipe.stage = 0 : i64} : index
    %k = arith.divui %d, %step {apipe.stage = 0 : i64} : index
    %off = arith.muli %k, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%k] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  memref.dealloc %buf : memref<4xf32>
  return
}

func.func @dynamic_span_over_index_max(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %lb: index, %ub: index, %step: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %iv = %lb to %ub step %step {
    %d = arith.subi %iv, %lb {apipe.stage = 0 : i64} : index
    %k = arith.divui %d, %step {apipe.stage = 0 : i64} : index
    %off = arith.muli %k, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%k] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  memref.dealloc %buf : memref<4xf32>
  return
}

// Static: unsigned [-10, -4) step 2: 3 iteration(s).
func.func @static_unsigned_negative_bounds(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %lb = arith.constant -10 : index
  %ub = arith.constant -4 : index
  %step = arith.constant 2 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for unsigned %iv = %lb to %ub step %step {
    %d = arith.subi %iv, %lb {apipe.stage = 0 : i64} : index
    %k = arith.divui %d, %step {apipe.stage = 0 : i64} : index
    %off = arith.muli %k, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%k] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  memref.dealloc %buf : memref<4xf32>
  return
}

func.func @dynamic_unsigned_negative_bounds(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %lb: index, %ub: index, %step: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for unsigned %iv = %lb to %ub step %step {
    %d = arith.subi %iv, %lb {apipe.stage = 0 : i64} : index
    %k = arith.divui %d, %step {apipe.stage = 0 : i64} : index
    %off = arith.muli %k, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%k] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  memref.dealloc %buf : memref<4xf32>
  return
}

// Static: unsigned [9223372036854775805, -9223372036854775805) step 2: 3 iteration(s).
func.func @static_unsigned_across_sign_bit(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %lb = arith.constant 9223372036854775805 : index
  %ub = arith.constant -9223372036854775805 : index
  %step = arith.constant 2 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for unsigned %iv = %lb to %ub step %step {
    %d = arith.subi %iv, %lb {apipe.stage = 0 : i64} : index
    %k = arith.divui %d, %step {apipe.stage = 0 : i64} : index
    %off = arith.muli %k, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%k] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  memref.dealloc %buf : memref<4xf32>
  return
}

func.func @dynamic_unsigned_across_sign_bit(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %lb: index, %ub: index, %step: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for unsigned %iv = %lb to %ub step %step {
    %d = arith.subi %iv, %lb {apipe.stage = 0 : i64} : index
    %k = arith.divui %d, %step {apipe.stage = 0 : i64} : index
    %off = arith.muli %k, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%k] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  memref.dealloc %buf : memref<4xf32>
  return
}

// Static: [9223372036854775805, -9223372036854775805) step 2: 0 iteration(s).
func.func @static_signed_across_sign_bit_is_empty(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %lb = arith.constant 9223372036854775805 : index
  %ub = arith.constant -9223372036854775805 : index
  %step = arith.constant 2 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %iv = %lb to %ub step %step {
    %d = arith.subi %iv, %lb {apipe.stage = 0 : i64} : index
    %k = arith.divui %d, %step {apipe.stage = 0 : i64} : index
    %off = arith.muli %k, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%k] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  memref.dealloc %buf : memref<4xf32>
  return
}

func.func @dynamic_signed_across_sign_bit_is_empty(%A: memref<64xf32> {llvm.noalias}, %out: memref<16xf32> {llvm.noalias}, %lb: index, %ub: index, %step: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %iv = %lb to %ub step %step {
    %d = arith.subi %iv, %lb {apipe.stage = 0 : i64} : index
    %k = arith.divui %d, %step {apipe.stage = 0 : i64} : index
    %off = arith.muli %k, %c4 {apipe.stage = 0 : i64} : index
    apipe.copy %A[%off], %buf[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>
    %x = memref.load %buf[%c1] {apipe.stage = 2 : i64} : memref<4xf32>
    memref.store %x, %out[%k] {apipe.stage = 2 : i64} : memref<16xf32>
  } {apipe.async_stages = array<i64: 0>}
  memref.dealloc %buf : memref<4xf32>
  return
}

func.func @reset(%out: memref<16xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %m1 = arith.constant -1.0 : f32
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %m1, %out[%i] : memref<16xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %A = memref.alloc() : memref<64xf32>
  %out = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    memref.store %f, %A[%i] : memref<64xf32>
  }
  %u = memref.cast %out : memref<16xf32> to memref<*xf32>

  // CHECK: [1,  5,  9,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @static_negative_lower_bound(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: [1,  5,  9,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  %lb_negative_lower_bound = arith.constant -7 : index
  %ub_negative_lower_bound = arith.constant 5 : index
  %step_negative_lower_bound = arith.constant 4 : index
  func.call @dynamic_negative_lower_bound(%A, %out, %lb_negative_lower_bound, %ub_negative_lower_bound, %step_negative_lower_bound) : (memref<64xf32>, memref<16xf32>, index, index, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: [1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @static_step_larger_than_range(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: [1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  %lb_step_larger_than_range = arith.constant 3 : index
  %ub_step_larger_than_range = arith.constant 5 : index
  %step_step_larger_than_range = arith.constant 100 : index
  func.call @dynamic_step_larger_than_range(%A, %out, %lb_step_larger_than_range, %ub_step_larger_than_range, %step_step_larger_than_range) : (memref<64xf32>, memref<16xf32>, index, index, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: [1,  5,  9,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @static_near_index_max(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: [1,  5,  9,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  %lb_near_index_max = arith.constant 9223372036854775797 : index
  %ub_near_index_max = arith.constant 9223372036854775803 : index
  %step_near_index_max = arith.constant 2 : index
  func.call @dynamic_near_index_max(%A, %out, %lb_near_index_max, %ub_near_index_max, %step_near_index_max) : (memref<64xf32>, memref<16xf32>, index, index, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: [1,  5,  9,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @static_near_index_min(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: [1,  5,  9,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  %lb_near_index_min = arith.constant -9223372036854775808 : index
  %ub_near_index_min = arith.constant -9223372036854775799 : index
  %step_near_index_min = arith.constant 4 : index
  func.call @dynamic_near_index_min(%A, %out, %lb_near_index_min, %ub_near_index_min, %step_near_index_min) : (memref<64xf32>, memref<16xf32>, index, index, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: [1,  5,  9,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @static_span_over_index_max(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: [1,  5,  9,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  %lb_span_over_index_max = arith.constant -9223372036854775803 : index
  %ub_span_over_index_max = arith.constant 4611686018427387893 : index
  %step_span_over_index_max = arith.constant 4611686018427387904 : index
  func.call @dynamic_span_over_index_max(%A, %out, %lb_span_over_index_max, %ub_span_over_index_max, %step_span_over_index_max) : (memref<64xf32>, memref<16xf32>, index, index, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: [1,  5,  9,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @static_unsigned_negative_bounds(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: [1,  5,  9,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  %lb_unsigned_negative_bounds = arith.constant -10 : index
  %ub_unsigned_negative_bounds = arith.constant -4 : index
  %step_unsigned_negative_bounds = arith.constant 2 : index
  func.call @dynamic_unsigned_negative_bounds(%A, %out, %lb_unsigned_negative_bounds, %ub_unsigned_negative_bounds, %step_unsigned_negative_bounds) : (memref<64xf32>, memref<16xf32>, index, index, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: [1,  5,  9,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @static_unsigned_across_sign_bit(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: [1,  5,  9,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  %lb_unsigned_across_sign_bit = arith.constant 9223372036854775805 : index
  %ub_unsigned_across_sign_bit = arith.constant -9223372036854775805 : index
  %step_unsigned_across_sign_bit = arith.constant 2 : index
  func.call @dynamic_unsigned_across_sign_bit(%A, %out, %lb_unsigned_across_sign_bit, %ub_unsigned_across_sign_bit, %step_unsigned_across_sign_bit) : (memref<64xf32>, memref<16xf32>, index, index, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: [-1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  func.call @static_signed_across_sign_bit_is_empty(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()

  // CHECK: [-1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
  func.call @reset(%out) : (memref<16xf32>) -> ()
  %lb_signed_across_sign_bit_is_empty = arith.constant 9223372036854775805 : index
  %ub_signed_across_sign_bit_is_empty = arith.constant -9223372036854775805 : index
  %step_signed_across_sign_bit_is_empty = arith.constant 2 : index
  func.call @dynamic_signed_across_sign_bit_is_empty(%A, %out, %lb_signed_across_sign_bit_is_empty, %ub_signed_across_sign_bit_is_empty, %step_signed_across_sign_bit_is_empty) : (memref<64xf32>, memref<16xf32>, index, index, index) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
