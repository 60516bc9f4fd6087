"""Prints N functions (N from the command line), each with an annotated
tile stream (the shape of examples/software_pipeline_input.mlir) and,
after its loop, a call of the next function: a module whose functions
MLIR's thread pool can transform in parallel while each reads its callers."""
import sys

n = int(sys.argv[1])
for i in range(n):
    print(f"func.func @f{i}(%A: memref<64xf32> {{llvm.noalias}}, %out: memref<16xf32> {{llvm.noalias}}) {{")
    for c in (0, 1, 4, 16):
        print(f"  %c{c} = arith.constant {c} : index")
    print("  %tile = memref.alloc() : memref<4xf32>")
    print("  scf.for %j = %c0 to %c16 step %c1 {")
    print("    %off = arith.muli %j, %c4 {apipe.stage = 0 : i64} : index")
    print("    apipe.copy %A[%off], %tile[%c0], 4 {apipe.stage = 0 : i64} : memref<64xf32> to memref<4xf32>")
    print("    %x = memref.load %tile[%c1] {apipe.stage = 2 : i64} : memref<4xf32>")
    print("    memref.store %x, %out[%j] {apipe.stage = 2 : i64} : memref<16xf32>")
    print("  } {apipe.async_stages = array<i64: 0>}")
    if i + 1 < n:
        print(f"  func.call @f{i + 1}(%A, %out) : (memref<64xf32>, memref<16xf32>) -> ()")
    print("  memref.dealloc %tile : memref<4xf32>")
    print("  return")
    print("}")
