// As in mlir-opt, a failing run does not leave an output file behind: the
// `-o` file is only written when every chunk succeeded. (`FileCheck
// --allow-empty` with only a NOT check succeeds on any file that exists, so
// `not FileCheck` checks that the file does not exist.)
// RUN: rm -f %t.fail %t.split-fail
// RUN: not apipe-opt %s -o %t.fail
// RUN: not FileCheck %s --allow-empty --check-prefix=EXISTS --input-file=%t.fail
// RUN: not apipe-opt --split-input-file %s -o %t.split-fail
// RUN: not FileCheck %s --allow-empty --check-prefix=EXISTS --input-file=%t.split-fail
// Nor an earlier run's: an existing `-o` file is removed, as mlir-opt
// removes its output file unless the run succeeds (it stayed, and a build
// took the stale output for this run's; trial 75).
// RUN: echo stale > %t.stale
// RUN: not apipe-opt %s -o %t.stale
// RUN: not FileCheck %s --allow-empty --check-prefix=EXISTS --input-file=%t.stale
// RUN: echo stale > %t.split-stale
// RUN: not apipe-opt --split-input-file %s -o %t.split-stale
// RUN: not FileCheck %s --allow-empty --check-prefix=EXISTS --input-file=%t.split-stale
// Only a regular file is removed: a device (`-o /dev/null`, which a run as
// root deleted before this check), a FIFO or a symbolic link stays, as
// LLVM's ToolOutputFile leaves special files alone.
// RUN: rm -f %t.fifo %t.link %t.target
// RUN: mkfifo %t.fifo
// RUN: not apipe-opt %s -o %t.fifo
// RUN: test -p %t.fifo
// RUN: echo target > %t.target
// RUN: ln -s %t.target %t.link
// RUN: not apipe-opt %s -o %t.link
// RUN: test -L %t.link
// RUN: test -s %t.target
// RUN: not apipe-opt %s -o /dev/null
// RUN: test -c /dev/null
// EXISTS-NOT: {{never-printed-marker}}

func.func @fine() {
  return
}

// -----

func.func @broken() {
  apipe.wait_group -1
  return
}
