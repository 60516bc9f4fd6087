"""Prints one function with N annotated tile streams in sequence (N from the
command line): each a loop of 16 iterations over its own 4-element tile,
whose copy (stage 0) runs two iterations ahead of its consumer (stage 2),
the shape of examples/software_pipeline_input.mlir."""
import sys

n = int(sys.argv[1])
print("func.func @streams(%A: memref<64xf32>, %out: memref<16xf32> {llvm.noalias}) {")
for c in (0, 1, 4, 16):
    print(f"  %c{c} = arith.constant {c} : index")
for s in range(n):
    print(f"  %tile{s} = memref.alloc() : memref<4xf32>")
    print("  scf.for %j = %c0 to %c16 step %c1 {")
    print("    %off = arith.muli %j, %c4 {apipe.stage = 0 : i64} : index")
    print(f"    apipe.copy %A[%off], %tile{s}[%c0], 4 {{apipe.stage = 0 : i64}} : memref<64xf32> to memref<4xf32>")
    print(f"    %x = memref.load %tile{s}[%c1] {{apipe.stage = 2 : i64}} : memref<4xf32>")
    print("    memref.store %x, %out[%j] {apipe.stage = 2 : i64} : memref<16xf32>")
    print("  } {apipe.async_stages = array<i64: 0>}")
print("  return")
print("}")
