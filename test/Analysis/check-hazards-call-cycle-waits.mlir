// Waits behind a cycle of calls (@k -> @first -> @second, which waits in
// its entry block and may call @first again): the checker's result does
// not depend on the order of the functions in the module (trial 26: a
// false alarm when the function that waits came first). A weaker wait in
// the cycle is reported in either order; apipe-run reads a copy in flight
// there.
// RUN: head -n 58 %s | apipe-opt - --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: head -n 58 %s | apipe-run - --completion=lazy | FileCheck %s
// RUN: head -n 58 %s | sed -e 's/wait_group 0/wait_group 1/' | not apipe-run - --completion=lazy 2>&1 | FileCheck %s --check-prefix=RACE
// RUN: apipe-opt %s --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | count 0
// RUN: sed -e 's/wait_group 0/wait_group 1/' %s | not apipe-opt - --split-input-file --apipe-check-hazards -o /dev/null 2>&1 | FileCheck %s --check-prefix=BROKEN
// CHECK: [0,  0,  12,  0,  0,  0]
// RACE: error: {{.*}}still in flight
// BROKEN-NOT: error
// BROKEN: <stdin>:41:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// BROKEN-NOT: error
// BROKEN: <stdin>:85:8: error: 'memref.load' op reads a buffer region that an async copy may still be writing (read-after-write)
// BROKEN-NOT: error
func.func @second(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.wait_group 0
  %more = arith.cmpi sgt, %n, %c0 : index
  scf.if %more {
    %m = arith.subi %n, %c1 : index
    func.call @first(%m) : (index) -> ()
  }
  return
}
func.func @first(%n: index) {
  func.call @second(%n) : (index) -> ()
  return
}
func.func @k(%A: memref<6xf32> {llvm.noalias}, %buf: memref<6xf32> {llvm.noalias}, %o: memref<6xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  apipe.copy %A[%c0], %buf[%c0], 6 : memref<6xf32> to memref<6xf32>
  apipe.commit_group
  func.call @first(%c3) : (index) -> ()
  %x = memref.load %buf[%c2] : memref<6xf32>
  memref.store %x, %o[%c2] : memref<6xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %twelve = arith.constant 12.0 : f32
  %zero = arith.constant 0.0 : f32
  %A = memref.alloc() : memref<6xf32>
  %o = memref.alloc() : memref<6xf32>
  %buf = memref.alloc() : memref<6xf32>
  linalg.fill ins(%twelve : f32) outs(%A : memref<6xf32>)
  linalg.fill ins(%zero : f32) outs(%o : memref<6xf32>)
  func.call @k(%A, %buf, %o) : (memref<6xf32>, memref<6xf32>, memref<6xf32>) -> ()
  %u = memref.cast %o : memref<6xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// -----

// The same cycle with the function that waits last.
func.func @first(%n: index) {
  func.call @second(%n) : (index) -> ()
  return
}
func.func @second(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  apipe.wait_group 0
  %more = arith.cmpi sgt, %n, %c0 : index
  scf.if %more {
    %m = arith.subi %n, %c1 : index
    func.call @first(%m) : (index) -> ()
  }
  return
}
func.func @k(%A: memref<6xf32> {llvm.noalias}, %buf: memref<6xf32> {llvm.noalias}, %o: memref<6xf32> {llvm.noalias}) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  apipe.copy %A[%c0], %buf[%c0], 6 : memref<6xf32> to memref<6xf32>
  apipe.commit_group
  func.call @first(%c3) : (index) -> ()
  %x = memref.load %buf[%c2] : memref<6xf32>
  memref.store %x, %o[%c2] : memref<6xf32>
  return
}
