// Odd shapes do not crash the conversions: declarations, empty bodies,
// commits without waits, waits without commits, kernels in gpu.module.
// RUN: apipe-opt %s --split-input-file --apipe-counting-to-tokens | FileCheck %s --check-prefix=TOKENS
// RUN: apipe-opt %s --split-input-file --apipe-counting-to-tokens --apipe-tokens-to-counting='strict=true' | FileCheck %s --check-prefix=COUNTING
// RUN: apipe-opt %s --split-input-file --apipe-merge-queues | FileCheck %s --check-prefix=COUNTING

// TOKENS-LABEL: func.func private @declaration()
// TOKENS-LABEL: func.func @empty
// TOKENS-NEXT: return
// COUNTING-LABEL: func.func private @declaration()
// COUNTING-LABEL: func.func @empty
// COUNTING-NEXT: return
func.func private @declaration()
func.func @empty() {
  return
}

// -----

// Commits and no wait: commits get tokens, no window, no ready.
// TOKENS-LABEL: func.func @commits_without_waits
// TOKENS-NEXT: %{{.*}} = apipe.commit_group{{$}}
// TOKENS-NEXT: %{{.*}} = apipe.commit_group{{$}}
// TOKENS-NEXT: return
// COUNTING-LABEL: func.func @commits_without_waits
// COUNTING-NEXT: {{^ *}}apipe.commit_group{{$}}
// COUNTING-NEXT: {{^ *}}apipe.commit_group{{$}}
// COUNTING-NEXT: return
func.func @commits_without_waits() {
  apipe.commit_group
  apipe.commit_group
  return
}

// -----

// A wait and no commit of the function's own: it waits for groups of the
// caller and stays in counting form (merge-queues moves it to queue 0 with
// its count, which at least as many groups follow on the merged queue).
// (In a kernel no group can exist: see @kernel_wait_without_commits.)
// TOKENS-LABEL: func.func @wait_without_commits
// TOKENS-NEXT: apipe.wait_group 2 queue 3{{$}}
// TOKENS-NEXT: return
// COUNTING-LABEL: func.func @wait_without_commits
// COUNTING-NEXT: apipe.wait_group 2{{( queue 3)?$}}
// COUNTING-NEXT: return
func.func @wait_without_commits() {
  apipe.wait_group 2 queue 3
  return
}

// -----

// The same in a kernel: its FIFO starts empty, no group can exist, the wait
// is on ready and the counting form drops it.
// TOKENS-LABEL: gpu.func @kernel_wait_without_commits
// TOKENS-NEXT: %[[R:.*]] = apipe.ready queue 3{{$}}
// TOKENS-NEXT: apipe.wait %[[R]]{{$}}
// TOKENS-NEXT: gpu.return
// COUNTING-LABEL: gpu.func @kernel_wait_without_commits
// COUNTING-NEXT: gpu.return
gpu.module @m {
  gpu.func @kernel_wait_without_commits() kernel {
    apipe.wait_group 2 queue 3
    gpu.return
  }
}

// -----

// Kernels in a gpu.module are functions of their own. A ready that no wait
// needs is not left behind.
// TOKENS-LABEL: gpu.func @kernel
// TOKENS-NEXT: %[[T:.*]] = apipe.commit_group{{$}}
// TOKENS-NEXT: apipe.wait %[[T]]{{$}}
// TOKENS-NEXT: gpu.return
// COUNTING-LABEL: gpu.func @kernel
// COUNTING-NEXT: {{^ *}}apipe.commit_group{{$}}
// COUNTING-NEXT: apipe.wait_group 0{{$}}
// COUNTING-NEXT: gpu.return
gpu.module @kernels {
  gpu.func @kernel() kernel {
    apipe.commit_group
    apipe.wait_group 0
    gpu.return
  }
}
