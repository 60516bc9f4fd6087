// Each --sm gets the lowest PTX ISA version it supports unless --ptx says
// otherwise, and every result assembles with ptxas for its architecture.
//
// RUN: apipe-translate %s --sm=sm_86 -o %t.86.ptx
// RUN: FileCheck %s --check-prefix=SM86 < %t.86.ptx
// RUN: %ptxas -arch=sm_86 %t.86.ptx -o %t.86.cubin
// RUN: apipe-translate %s --sm=89 -o %t.89.ptx
// RUN: FileCheck %s --check-prefix=SM89 < %t.89.ptx
// RUN: %ptxas -arch=sm_89 %t.89.ptx -o %t.89.cubin
// RUN: apipe-translate %s --sm=90a -o %t.90a.ptx
// RUN: FileCheck %s --check-prefix=SM90A < %t.90a.ptx
// RUN: %ptxas -arch=sm_90a %t.90a.ptx -o %t.90a.cubin
// RUN: apipe-translate %s --sm=80 --ptx=80 -o %t.80.ptx
// RUN: FileCheck %s --check-prefix=PTX80 < %t.80.ptx
// RUN: %ptxas -arch=sm_80 %t.80.ptx -o %t.80.cubin
// RUN: apipe-translate %s --sm=80 --ptx=88 -o %t.88.ptx
// RUN: FileCheck %s --check-prefix=PTX88 < %t.88.ptx
// RUN: %ptxas -arch=sm_80 %t.88.ptx -o %t.88.cubin
// RUN: apipe-translate %s --sm=80 --to-cubin -o %t.cubin
// RUN: od -An -c -N4 %t.cubin | FileCheck %s --check-prefix=ELF

// SM86: .version 7.1
// SM86-NEXT: .target sm_86
// SM89: .version 7.8
// SM89-NEXT: .target sm_89
// SM90A: .version 8.0
// SM90A-NEXT: .target sm_90a
// PTX80: .version 8.0
// PTX80-NEXT: .target sm_80
// PTX88: .version 8.8
// PTX88-NEXT: .target sm_80
// ELF: 177 E L F
gpu.module @kernels {
  gpu.func @one_copy(%src: memref<1024xf32>) workgroup(%buf: memref<512xf32, 3>) kernel {
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %lane = arith.muli %tid, %c4 : index
    apipe.copy %src[%lane], %buf[%lane], 4 {bypass_l1} : memref<1024xf32> to memref<512xf32, 3>
    apipe.commit_group
    apipe.wait_group 0
    gpu.return
  }
}
