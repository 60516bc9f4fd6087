// End to end, a helper entered with its caller's group in flight: it
// issues its own copy and waits for the caller's (wait_group 1 after its
// single group; PTX cp.async.wait_group counts per thread). The helper is
// converted alone (counting-to-tokens, the strict round trip, merge-queues,
// export and import), appended to its caller and run in lazy, eager and
// random completion: the caller's tile must have landed when the helper
// returns. (A report: the round trip deleted that wait.)
// RUN: cat %S/Inputs/entry-groups-helper.mlir %S/Inputs/entry-groups-caller.mlir > %t.input.mlir
// RUN: apipe-opt %t.input.mlir --apipe-make-sync | apipe-run - | FileCheck %s
// RUN: apipe-run %t.input.mlir --completion=lazy | FileCheck %s
// RUN: apipe-opt %S/Inputs/entry-groups-helper.mlir --apipe-counting-to-tokens | sed -e '1d' -e '/^}$/d' > %t.c2t.mlir
// RUN: cat %t.c2t.mlir %S/Inputs/entry-groups-caller.mlir | apipe-run - --completion=lazy | FileCheck %s
// RUN: cat %t.c2t.mlir %S/Inputs/entry-groups-caller.mlir | apipe-run - --completion=eager | FileCheck %s
// RUN: apipe-opt %S/Inputs/entry-groups-helper.mlir --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-counting{strict=true})' | sed -e '1d' -e '/^}$/d' > %t.rt.mlir
// RUN: cat %t.rt.mlir %S/Inputs/entry-groups-caller.mlir | apipe-run - --completion=lazy | FileCheck %s
// RUN: cat %t.rt.mlir %S/Inputs/entry-groups-caller.mlir | apipe-run - --completion=random:1 | FileCheck %s
// RUN: apipe-opt %S/Inputs/entry-groups-helper.mlir --apipe-merge-queues | sed -e '1d' -e '/^}$/d' > %t.merged.mlir
// RUN: cat %t.merged.mlir %S/Inputs/entry-groups-caller.mlir | apipe-run - --completion=lazy | FileCheck %s
// RUN: apipe-opt %S/Inputs/entry-groups-helper.mlir --pass-pipeline='builtin.module(apipe-to-nvgpu{tokens=true},apipe-import-nvgpu,apipe-counting-to-tokens,apipe-tokens-to-counting{strict=true})' | sed -e '1d' -e '/^}$/d' > %t.nvgpu.mlir
// RUN: cat %t.nvgpu.mlir %S/Inputs/entry-groups-caller.mlir | apipe-run - --completion=lazy | FileCheck %s
// RUN: cat %t.nvgpu.mlir %S/Inputs/entry-groups-caller.mlir | apipe-run - --completion=eager | FileCheck %s
// tokens-to-mbarrier refuses the wait_group that counting-to-tokens keeps:
// no slot of the helper names its caller's group.
// RUN: not apipe-opt %S/Inputs/entry-groups-helper.mlir --pass-pipeline='builtin.module(apipe-counting-to-tokens,apipe-tokens-to-mbarrier)' 2>&1 | FileCheck %s --check-prefix=MBARRIER
// MBARRIER: entry-groups-helper.mlir:9:3: error: 'apipe.wait_group' op is in counting form; apipe-tokens-to-mbarrier converts token form (run apipe-counting-to-tokens first; a wait_group it keeps waits for groups committed before the function's entry, which no slot of this function names)

// The caller's tile A[8..12), then the helper's A[16..20).
// CHECK: [8,  9,  10,  11,  16,  17,  18,  19,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
