hello world this is not mlir
