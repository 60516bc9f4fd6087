// MLIR's lowering of scf.index_switch (convert-scf-to-cf) compares the
// value and the cases as i32: a case outside the i32 range would match
// another value (silently), or collide with another case (LLVM then
// rejects the module). apipe-run and apipe-translate refuse such a switch
// before lowering, at its location (a fuzzed input with cases 0 and 2^32
// got "the JIT could not compile the lowered module", with no location).
// RUN: not apipe-run %s 2>&1 | FileCheck %s
// RUN: sed -n '/^gpu.module/,/^}/p' %s > %t.kernel.mlir
// RUN: not apipe-translate %t.kernel.mlir --to-ptx --sm=80 -o /dev/null 2>&1 | FileCheck %s --check-prefix=TRANSLATE
// CHECK: index-switch-cases.mlir:[[# @LINE + 10]]:8: error: 'scf.index_switch' case 4294967296 does not fit in 32 bits: MLIR's lowering to cf.switch compares the value as i32, where this case would match another value
// TRANSLATE: index-switch-cases.mlir.tmp.kernel.mlir:3:10: error: 'scf.index_switch' case -2147483649 does not fit in 32 bits
//
// Cases at the ends of the i32 range run: x = 0, 2147483647, -2147483648
// and 7 select 1, 2, 3 and the default 4.
// RUN: sed -e '/^func.func @main() {$/,/^}$/d' -e '/^gpu.module/,$d' -e 's/^func.func @in_range() {$/func.func @main() {/' %s | apipe-run - | FileCheck %s --check-prefix=RANGE
// RANGE: [1,  2,  3,  4]
func.func private @printMemrefI32(memref<*xi32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %r = scf.index_switch %c0 -> i32
  case 0 {
    %a = arith.constant 1 : i32
    scf.yield %a : i32
  }
  case 4294967296 {
    %b = arith.constant 2 : i32
    scf.yield %b : i32
  }
  default {
    %d = arith.constant 3 : i32
    scf.yield %d : i32
  }
  return
}
func.func @in_range() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %out = memref.alloc() : memref<4xi32>
  %x0 = arith.constant 0 : index
  %x1 = arith.constant 2147483647 : index
  %x2 = arith.constant -2147483648 : index
  %x3 = arith.constant 7 : index
  %xs = memref.alloc() : memref<4xindex>
  memref.store %x0, %xs[%c0] : memref<4xindex>
  memref.store %x1, %xs[%c1] : memref<4xindex>
  memref.store %x2, %xs[%c2] : memref<4xindex>
  memref.store %x3, %xs[%c3] : memref<4xindex>
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %xs[%i] : memref<4xindex>
    %r = scf.index_switch %x -> i32
    case 0 {
      %a = arith.constant 1 : i32
      scf.yield %a : i32
    }
    case 2147483647 {
      %b = arith.constant 2 : i32
      scf.yield %b : i32
    }
    case -2147483648 {
      %b = arith.constant 3 : i32
      scf.yield %b : i32
    }
    default {
      %d = arith.constant 4 : i32
      scf.yield %d : i32
    }
    memref.store %r, %out[%i] : memref<4xi32>
  }
  %u = memref.cast %out : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
gpu.module @kernels {
  gpu.func @k(%out: memref<8xi32>, %x: index) kernel {
    %r = scf.index_switch %x -> i32
    case -2147483649 {
      %a = arith.constant 1 : i32
      scf.yield %a : i32
    }
    default {
      %d = arith.constant 3 : i32
      scf.yield %d : i32
    }
    %c0 = arith.constant 0 : index
    memref.store %r, %out[%c0] : memref<8xi32>
    gpu.return
  }
}
