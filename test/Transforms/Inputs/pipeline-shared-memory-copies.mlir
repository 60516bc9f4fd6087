// Transform script for the comparisons with upstream: every scf.for of the
// gpu.module is pipelined with upstream
// transform.nvgpu.pipeline_shared_memory_copies {depth = 2, peel_epilogue}
// (two tiles in flight: what apipe-software-pipeline{num-stages=3} does).
// Loaded with
//   mlir-opt --transform-preload-library=transform-library-paths=THIS --transform-interpreter
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %kernels = transform.structured.match ops{["gpu.module"]} in %root : (!transform.any_op) -> !transform.any_op
    %loops = transform.structured.match ops{["scf.for"]} in %kernels : (!transform.any_op) -> !transform.any_op
    %pipelined = transform.nvgpu.pipeline_shared_memory_copies failures(propagate) %loops {depth = 2, peel_epilogue} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
