module attributes {gpu.container_module} {
gpu.module @kernel_gpu {
  gpu.func @kernel_k(%arg0: memref<1152xf32>, %arg1: memref<384xf32> {llvm.noalias}, %arg2: index) workgroup(%arg3 : memref<5x16xf32, 3>, %arg4 : memref<5x16xf32, 3>, %arg5 : memref<5x4xf32, 3>) kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c36 = arith.constant 36 : index
    %cst = arith.constant 1.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+01 : f32
    %thread_id_x = gpu.thread_id  x
    %block_id_x = gpu.block_id  x
    %0 = arith.muli %thread_id_x, %c4 : index
    %c0_1 = arith.constant 0 : index
    %1 = arith.addi %0, %c0_1 : index
    %c16_2 = arith.constant 16 : index
    %c14 = arith.constant 14 : index
    %2 = arith.addi %0, %c14 : index
    %3 = arith.remui %2, %c16_2 : index
    %c15 = arith.constant 15 : index
    %4 = arith.addi %0, %c15 : index
    %5 = arith.remui %4, %c16_2 : index
    %c16_3 = arith.constant 16 : index
    %6 = arith.addi %0, %c16_3 : index
    %7 = arith.remui %6, %c16_2 : index
    %c13 = arith.constant 13 : index
    %8 = arith.addi %0, %c13 : index
    %9 = arith.remui %8, %c16_2 : index
    %10 = arith.muli %thread_id_x, %c4 : index
    %c16_4 = arith.constant 16 : index
    %11 = arith.addi %10, %c16_4 : index
    %c16_5 = arith.constant 16 : index
    %c5_6 = arith.constant 5 : index
    %12 = arith.addi %10, %c5_6 : index
    %13 = arith.remui %12, %c16_5 : index
    %c6_7 = arith.constant 6 : index
    %14 = arith.addi %10, %c6_7 : index
    %15 = arith.remui %14, %c16_5 : index
    %c7_8 = arith.constant 7 : index
    %16 = arith.addi %10, %c7_8 : index
    %17 = arith.remui %16, %c16_5 : index
    %c4_9 = arith.constant 4 : index
    %18 = arith.addi %10, %c4_9 : index
    %19 = arith.remui %18, %c16_5 : index
    %20 = arith.muli %thread_id_x, %c1 : index
    %c32 = arith.constant 32 : index
    %21 = arith.addi %20, %c32 : index
    %c4_10 = arith.constant 4 : index
    %c2_11 = arith.constant 2 : index
    %22 = arith.addi %20, %c2_11 : index
    %23 = arith.remui %22, %c4_10 : index
    scf.for %arg6 = %c0 to %c2 step %c1 {
      %24 = arith.muli %block_id_x, %c2 : index
      %25 = arith.addi %24, %arg6 : index
      %26 = arith.muli %25, %c16 : index
      %c4_12 = arith.constant 4 : index
      %c1_13 = arith.constant 1 : index
      %c3_14 = arith.constant 3 : index
      %c5_15 = arith.constant 5 : index
      %c2_16 = arith.constant 2 : index
      %c7_17 = arith.constant 7 : index
      %c0_18 = arith.constant 0 : index
      %27 = arith.cmpi slt, %c1, %arg2 : index
      %28 = arith.subi %arg2, %c1 : index
      %29 = arith.ceildivui %28, %c2 : index
      %30 = arith.select %27, %29, %c0_18 : index
      %31 = arith.minui %30, %c4_12 : index
      scf.index_switch %31 
      case 0 {
        scf.yield
      }
      case 1 {
        %32 = arith.addi %26, %c1_13 : index
        %33 = arith.muli %32, %c36 : index
        %34 = arith.addi %33, %1 : index
        gpu.barrier
        %subview = memref.subview %arg3[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%34], %subview[%0], 4 queue 0 : memref<1152xf32> to memref<16xf32, strided<[1], offset: ?>, 3>
        %35 = arith.addi %26, %c1_13 : index
        %36 = arith.muli %35, %c36 : index
        %37 = arith.addi %36, %11 : index
        %subview_19 = memref.subview %arg4[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%37], %subview_19[%10], 4 queue 0 : memref<1152xf32> to memref<16xf32, strided<[1], offset: ?>, 3>
        %38 = arith.addi %26, %c1_13 : index
        %39 = arith.muli %38, %c36 : index
        %40 = arith.addi %39, %21 : index
        %subview_20 = memref.subview %arg5[%c0_18, 0] [1, 4] [1, 1] : memref<5x4xf32, 3> to memref<4xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%40], %subview_20[%20], 1 queue 0 : memref<1152xf32> to memref<4xf32, strided<[1], offset: ?>, 3>
        apipe.commit_group queue 0
        apipe.commit_group queue 0
        apipe.commit_group queue 0
        apipe.commit_group queue 0
        apipe.wait_group 3
        gpu.barrier
        %subview_21 = memref.subview %arg3[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %41 = memref.load %subview_21[%3] : memref<16xf32, strided<[1], offset: ?>, 3>
        %subview_22 = memref.subview %arg3[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %42 = memref.load %subview_22[%5] : memref<16xf32, strided<[1], offset: ?>, 3>
        %43 = arith.mulf %41, %cst_0 : f32
        %44 = arith.addf %43, %42 : f32
        %subview_23 = memref.subview %arg3[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %45 = memref.load %subview_23[%7] : memref<16xf32, strided<[1], offset: ?>, 3>
        %46 = arith.mulf %44, %cst_0 : f32
        %47 = arith.addf %46, %45 : f32
        %subview_24 = memref.subview %arg3[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %48 = memref.load %subview_24[%9] : memref<16xf32, strided<[1], offset: ?>, 3>
        %49 = arith.mulf %47, %cst_0 : f32
        %50 = arith.addf %49, %48 : f32
        %51 = arith.addf %50, %cst : f32
        %52 = arith.addi %26, %c1_13 : index
        %53 = arith.muli %52, %c4 : index
        %54 = arith.addi %53, %thread_id_x : index
        %55 = arith.muli %54, %c3 : index
        %56 = arith.addi %55, %c0 : index
        memref.store %51, %arg1[%56] : memref<384xf32>
        %subview_25 = memref.subview %arg4[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %57 = memref.load %subview_25[%13] : memref<16xf32, strided<[1], offset: ?>, 3>
        %subview_26 = memref.subview %arg4[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %58 = memref.load %subview_26[%15] : memref<16xf32, strided<[1], offset: ?>, 3>
        %59 = arith.mulf %57, %cst_0 : f32
        %60 = arith.addf %59, %58 : f32
        %subview_27 = memref.subview %arg4[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %61 = memref.load %subview_27[%17] : memref<16xf32, strided<[1], offset: ?>, 3>
        %62 = arith.mulf %60, %cst_0 : f32
        %63 = arith.addf %62, %61 : f32
        %subview_28 = memref.subview %arg4[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %64 = memref.load %subview_28[%19] : memref<16xf32, strided<[1], offset: ?>, 3>
        %65 = arith.mulf %63, %cst_0 : f32
        %66 = arith.addf %65, %64 : f32
        %67 = arith.addf %66, %cst : f32
        %68 = arith.addi %26, %c1_13 : index
        %69 = arith.muli %68, %c4 : index
        %70 = arith.addi %69, %thread_id_x : index
        %71 = arith.muli %70, %c3 : index
        %72 = arith.addi %71, %c1 : index
        memref.store %67, %arg1[%72] : memref<384xf32>
        %subview_29 = memref.subview %arg5[%c0_18, 0] [1, 4] [1, 1] : memref<5x4xf32, 3> to memref<4xf32, strided<[1], offset: ?>, 3>
        %73 = memref.load %subview_29[%23] : memref<4xf32, strided<[1], offset: ?>, 3>
        %74 = arith.addf %73, %cst : f32
        %75 = arith.addi %26, %c1_13 : index
        %76 = arith.muli %75, %c4 : index
        %77 = arith.addi %76, %thread_id_x : index
        %78 = arith.muli %77, %c3 : index
        %79 = arith.addi %78, %c2 : index
        memref.store %74, %arg1[%79] : memref<384xf32>
        apipe.commit_group queue 0
        scf.yield
      }
      case 2 {
        %32 = arith.addi %26, %c1_13 : index
        %33 = arith.muli %32, %c36 : index
        %34 = arith.addi %33, %1 : index
        gpu.barrier
        %subview = memref.subview %arg3[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%34], %subview[%0], 4 queue 0 : memref<1152xf32> to memref<16xf32, strided<[1], offset: ?>, 3>
        %35 = arith.addi %26, %c1_13 : index
        %36 = arith.muli %35, %c36 : index
        %37 = arith.addi %36, %11 : index
        %subview_19 = memref.subview %arg4[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%37], %subview_19[%10], 4 queue 0 : memref<1152xf32> to memref<16xf32, strided<[1], offset: ?>, 3>
        %38 = arith.addi %26, %c1_13 : index
        %39 = arith.muli %38, %c36 : index
        %40 = arith.addi %39, %21 : index
        %subview_20 = memref.subview %arg5[%c0_18, 0] [1, 4] [1, 1] : memref<5x4xf32, 3> to memref<4xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%40], %subview_20[%20], 1 queue 0 : memref<1152xf32> to memref<4xf32, strided<[1], offset: ?>, 3>
        apipe.commit_group queue 0
        %41 = arith.addi %26, %c3_14 : index
        %42 = arith.muli %41, %c36 : index
        %43 = arith.addi %42, %1 : index
        %subview_21 = memref.subview %arg3[%c1_13, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%43], %subview_21[%0], 4 queue 0 : memref<1152xf32> to memref<16xf32, strided<[1], offset: ?>, 3>
        %44 = arith.addi %26, %c3_14 : index
        %45 = arith.muli %44, %c36 : index
        %46 = arith.addi %45, %11 : index
        %subview_22 = memref.subview %arg4[%c1_13, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%46], %subview_22[%10], 4 queue 0 : memref<1152xf32> to memref<16xf32, strided<[1], offset: ?>, 3>
        %47 = arith.addi %26, %c3_14 : index
        %48 = arith.muli %47, %c36 : index
        %49 = arith.addi %48, %21 : index
        %subview_23 = memref.subview %arg5[%c1_13, 0] [1, 4] [1, 1] : memref<5x4xf32, 3> to memref<4xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%49], %subview_23[%20], 1 queue 0 : memref<1152xf32> to memref<4xf32, strided<[1], offset: ?>, 3>
        apipe.commit_group queue 0
        apipe.commit_group queue 0
        apipe.commit_group queue 0
        apipe.wait_group 3
        gpu.barrier
        %subview_24 = memref.subview %arg3[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %50 = memref.load %subview_24[%3] : memref<16xf32, strided<[1], offset: ?>, 3>
        %subview_25 = memref.subview %arg3[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %51 = memref.load %subview_25[%5] : memref<16xf32, strided<[1], offset: ?>, 3>
        %52 = arith.mulf %50, %cst_0 : f32
        %53 = arith.addf %52, %51 : f32
        %subview_26 = memref.subview %arg3[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %54 = memref.load %subview_26[%7] : memref<16xf32, strided<[1], offset: ?>, 3>
        %55 = arith.mulf %53, %cst_0 : f32
        %56 = arith.addf %55, %54 : f32
        %subview_27 = memref.subview %arg3[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %57 = memref.load %subview_27[%9] : memref<16xf32, strided<[1], offset: ?>, 3>
        %58 = arith.mulf %56, %cst_0 : f32
        %59 = arith.addf %58, %57 : f32
        %60 = arith.addf %59, %cst : f32
        %61 = arith.addi %26, %c1_13 : index
        %62 = arith.muli %61, %c4 : index
        %63 = arith.addi %62, %thread_id_x : index
        %64 = arith.muli %63, %c3 : index
        %65 = arith.addi %64, %c0 : index
        memref.store %60, %arg1[%65] : memref<384xf32>
        %subview_28 = memref.subview %arg4[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %66 = memref.load %subview_28[%13] : memref<16xf32, strided<[1], offset: ?>, 3>
        %subview_29 = memref.subview %arg4[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %67 = memref.load %subview_29[%15] : memref<16xf32, strided<[1], offset: ?>, 3>
        %68 = arith.mulf %66, %cst_0 : f32
        %69 = arith.addf %68, %67 : f32
        %subview_30 = memref.subview %arg4[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %70 = memref.load %subview_30[%17] : memref<16xf32, strided<[1], offset: ?>, 3>
        %71 = arith.mulf %69, %cst_0 : f32
        %72 = arith.addf %71, %70 : f32
        %subview_31 = memref.subview %arg4[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %73 = memref.load %subview_31[%19] : memref<16xf32, strided<[1], offset: ?>, 3>
        %74 = arith.mulf %72, %cst_0 : f32
        %75 = arith.addf %74, %73 : f32
        %76 = arith.addf %75, %cst : f32
        %77 = arith.addi %26, %c1_13 : index
        %78 = arith.muli %77, %c4 : index
        %79 = arith.addi %78, %thread_id_x : index
        %80 = arith.muli %79, %c3 : index
        %81 = arith.addi %80, %c1 : index
        memref.store %76, %arg1[%81] : memref<384xf32>
        %subview_32 = memref.subview %arg5[%c0_18, 0] [1, 4] [1, 1] : memref<5x4xf32, 3> to memref<4xf32, strided<[1], offset: ?>, 3>
        %82 = memref.load %subview_32[%23] : memref<4xf32, strided<[1], offset: ?>, 3>
        %83 = arith.addf %82, %cst : f32
        %84 = arith.addi %26, %c1_13 : index
        %85 = arith.muli %84, %c4 : index
        %86 = arith.addi %85, %thread_id_x : index
        %87 = arith.muli %86, %c3 : index
        %88 = arith.addi %87, %c2 : index
        memref.store %83, %arg1[%88] : memref<384xf32>
        gpu.barrier
        apipe.commit_group queue 0
        apipe.wait_group 3
        gpu.barrier
        %subview_33 = memref.subview %arg3[%c1_13, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %89 = memref.load %subview_33[%3] : memref<16xf32, strided<[1], offset: ?>, 3>
        %subview_34 = memref.subview %arg3[%c1_13, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %90 = memref.load %subview_34[%5] : memref<16xf32, strided<[1], offset: ?>, 3>
        %91 = arith.mulf %89, %cst_0 : f32
        %92 = arith.addf %91, %90 : f32
        %subview_35 = memref.subview %arg3[%c1_13, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %93 = memref.load %subview_35[%7] : memref<16xf32, strided<[1], offset: ?>, 3>
        %94 = arith.mulf %92, %cst_0 : f32
        %95 = arith.addf %94, %93 : f32
        %subview_36 = memref.subview %arg3[%c1_13, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %96 = memref.load %subview_36[%9] : memref<16xf32, strided<[1], offset: ?>, 3>
        %97 = arith.mulf %95, %cst_0 : f32
        %98 = arith.addf %97, %96 : f32
        %99 = arith.addf %98, %cst : f32
        %100 = arith.addi %26, %c3_14 : index
        %101 = arith.muli %100, %c4 : index
        %102 = arith.addi %101, %thread_id_x : index
        %103 = arith.muli %102, %c3 : index
        %104 = arith.addi %103, %c0 : index
        memref.store %99, %arg1[%104] : memref<384xf32>
        %subview_37 = memref.subview %arg4[%c1_13, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %105 = memref.load %subview_37[%13] : memref<16xf32, strided<[1], offset: ?>, 3>
        %subview_38 = memref.subview %arg4[%c1_13, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %106 = memref.load %subview_38[%15] : memref<16xf32, strided<[1], offset: ?>, 3>
        %107 = arith.mulf %105, %cst_0 : f32
        %108 = arith.addf %107, %106 : f32
        %subview_39 = memref.subview %arg4[%c1_13, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %109 = memref.load %subview_39[%17] : memref<16xf32, strided<[1], offset: ?>, 3>
        %110 = arith.mulf %108, %cst_0 : f32
        %111 = arith.addf %110, %109 : f32
        %subview_40 = memref.subview %arg4[%c1_13, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %112 = memref.load %subview_40[%19] : memref<16xf32, strided<[1], offset: ?>, 3>
        %113 = arith.mulf %111, %cst_0 : f32
        %114 = arith.addf %113, %112 : f32
        %115 = arith.addf %114, %cst : f32
        %116 = arith.addi %26, %c3_14 : index
        %117 = arith.muli %116, %c4 : index
        %118 = arith.addi %117, %thread_id_x : index
        %119 = arith.muli %118, %c3 : index
        %120 = arith.addi %119, %c1 : index
        memref.store %115, %arg1[%120] : memref<384xf32>
        %subview_41 = memref.subview %arg5[%c1_13, 0] [1, 4] [1, 1] : memref<5x4xf32, 3> to memref<4xf32, strided<[1], offset: ?>, 3>
        %121 = memref.load %subview_41[%23] : memref<4xf32, strided<[1], offset: ?>, 3>
        %122 = arith.addf %121, %cst : f32
        %123 = arith.addi %26, %c3_14 : index
        %124 = arith.muli %123, %c4 : index
        %125 = arith.addi %124, %thread_id_x : index
        %126 = arith.muli %125, %c3 : index
        %127 = arith.addi %126, %c2 : index
        memref.store %122, %arg1[%127] : memref<384xf32>
        gpu.barrier
        apipe.commit_group queue 0
        scf.yield
      }
      case 3 {
        %32 = arith.addi %26, %c1_13 : index
        %33 = arith.muli %32, %c36 : index
        %34 = arith.addi %33, %1 : index
        gpu.barrier
        %subview = memref.subview %arg3[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%34], %subview[%0], 4 queue 0 : memref<1152xf32> to memref<16xf32, strided<[1], offset: ?>, 3>
        %35 = arith.addi %26, %c1_13 : index
        %36 = arith.muli %35, %c36 : index
        %37 = arith.addi %36, %11 : index
        %subview_19 = memref.subview %arg4[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%37], %subview_19[%10], 4 queue 0 : memref<1152xf32> to memref<16xf32, strided<[1], offset: ?>, 3>
        %38 = arith.addi %26, %c1_13 : index
        %39 = arith.muli %38, %c36 : index
        %40 = arith.addi %39, %21 : index
        %subview_20 = memref.subview %arg5[%c0_18, 0] [1, 4] [1, 1] : memref<5x4xf32, 3> to memref<4xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%40], %subview_20[%20], 1 queue 0 : memref<1152xf32> to memref<4xf32, strided<[1], offset: ?>, 3>
        apipe.commit_group queue 0
        %41 = arith.addi %26, %c3_14 : index
        %42 = arith.muli %41, %c36 : index
        %43 = arith.addi %42, %1 : index
        %subview_21 = memref.subview %arg3[%c1_13, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%43], %subview_21[%0], 4 queue 0 : memref<1152xf32> to memref<16xf32, strided<[1], offset: ?>, 3>
        %44 = arith.addi %26, %c3_14 : index
        %45 = arith.muli %44, %c36 : index
        %46 = arith.addi %45, %11 : index
        %subview_22 = memref.subview %arg4[%c1_13, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%46], %subview_22[%10], 4 queue 0 : memref<1152xf32> to memref<16xf32, strided<[1], offset: ?>, 3>
        %47 = arith.addi %26, %c3_14 : index
        %48 = arith.muli %47, %c36 : index
        %49 = arith.addi %48, %21 : index
        %subview_23 = memref.subview %arg5[%c1_13, 0] [1, 4] [1, 1] : memref<5x4xf32, 3> to memref<4xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%49], %subview_23[%20], 1 queue 0 : memref<1152xf32> to memref<4xf32, strided<[1], offset: ?>, 3>
        apipe.commit_group queue 0
        %50 = arith.addi %26, %c5_15 : index
        %51 = arith.muli %50, %c36 : index
        %52 = arith.addi %51, %1 : index
        %subview_24 = memref.subview %arg3[%c2_16, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%52], %subview_24[%0], 4 queue 0 : memref<1152xf32> to memref<16xf32, strided<[1], offset: ?>, 3>
        %53 = arith.addi %26, %c5_15 : index
        %54 = arith.muli %53, %c36 : index
        %55 = arith.addi %54, %11 : index
        %subview_25 = memref.subview %arg4[%c2_16, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%55], %subview_25[%10], 4 queue 0 : memref<1152xf32> to memref<16xf32, strided<[1], offset: ?>, 3>
        %56 = arith.addi %26, %c5_15 : index
        %57 = arith.muli %56, %c36 : index
        %58 = arith.addi %57, %21 : index
        %subview_26 = memref.subview %arg5[%c2_16, 0] [1, 4] [1, 1] : memref<5x4xf32, 3> to memref<4xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%58], %subview_26[%20], 1 queue 0 : memref<1152xf32> to memref<4xf32, strided<[1], offset: ?>, 3>
        apipe.commit_group queue 0
        apipe.commit_group queue 0
        apipe.wait_group 3
        gpu.barrier
        %subview_27 = memref.subview %arg3[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %59 = memref.load %subview_27[%3] : memref<16xf32, strided<[1], offset: ?>, 3>
        %subview_28 = memref.subview %arg3[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %60 = memref.load %subview_28[%5] : memref<16xf32, strided<[1], offset: ?>, 3>
        %61 = arith.mulf %59, %cst_0 : f32
        %62 = arith.addf %61, %60 : f32
        %subview_29 = memref.subview %arg3[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %63 = memref.load %subview_29[%7] : memref<16xf32, strided<[1], offset: ?>, 3>
        %64 = arith.mulf %62, %cst_0 : f32
        %65 = arith.addf %64, %63 : f32
        %subview_30 = memref.subview %arg3[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %66 = memref.load %subview_30[%9] : memref<16xf32, strided<[1], offset: ?>, 3>
        %67 = arith.mulf %65, %cst_0 : f32
        %68 = arith.addf %67, %66 : f32
        %69 = arith.addf %68, %cst : f32
        %70 = arith.addi %26, %c1_13 : index
        %71 = arith.muli %70, %c4 : index
        %72 = arith.addi %71, %thread_id_x : index
        %73 = arith.muli %72, %c3 : index
        %74 = arith.addi %73, %c0 : index
        memref.store %69, %arg1[%74] : memref<384xf32>
        %subview_31 = memref.subview %arg4[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %75 = memref.load %subview_31[%13] : memref<16xf32, strided<[1], offset: ?>, 3>
        %subview_32 = memref.subview %arg4[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %76 = memref.load %subview_32[%15] : memref<16xf32, strided<[1], offset: ?>, 3>
        %77 = arith.mulf %75, %cst_0 : f32
        %78 = arith.addf %77, %76 : f32
        %subview_33 = memref.subview %arg4[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %79 = memref.load %subview_33[%17] : memref<16xf32, strided<[1], offset: ?>, 3>
        %80 = arith.mulf %78, %cst_0 : f32
        %81 = arith.addf %80, %79 : f32
        %subview_34 = memref.subview %arg4[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %82 = memref.load %subview_34[%19] : memref<16xf32, strided<[1], offset: ?>, 3>
        %83 = arith.mulf %81, %cst_0 : f32
        %84 = arith.addf %83, %82 : f32
        %85 = arith.addf %84, %cst : f32
        %86 = arith.addi %26, %c1_13 : index
        %87 = arith.muli %86, %c4 : index
        %88 = arith.addi %87, %thread_id_x : index
        %89 = arith.muli %88, %c3 : index
        %90 = arith.addi %89, %c1 : index
        memref.store %85, %arg1[%90] : memref<384xf32>
        %subview_35 = memref.subview %arg5[%c0_18, 0] [1, 4] [1, 1] : memref<5x4xf32, 3> to memref<4xf32, strided<[1], offset: ?>, 3>
        %91 = memref.load %subview_35[%23] : memref<4xf32, strided<[1], offset: ?>, 3>
        %92 = arith.addf %91, %cst : f32
        %93 = arith.addi %26, %c1_13 : index
        %94 = arith.muli %93, %c4 : index
        %95 = arith.addi %94, %thread_id_x : index
        %96 = arith.muli %95, %c3 : index
        %97 = arith.addi %96, %c2 : index
        memref.store %92, %arg1[%97] : memref<384xf32>
        gpu.barrier
        apipe.commit_group queue 0
        apipe.wait_group 3
        gpu.barrier
        %subview_36 = memref.subview %arg3[%c1_13, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %98 = memref.load %subview_36[%3] : memref<16xf32, strided<[1], offset: ?>, 3>
        %subview_37 = memref.subview %arg3[%c1_13, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %99 = memref.load %subview_37[%5] : memref<16xf32, strided<[1], offset: ?>, 3>
        %100 = arith.mulf %98, %cst_0 : f32
        %101 = arith.addf %100, %99 : f32
        %subview_38 = memref.subview %arg3[%c1_13, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %102 = memref.load %subview_38[%7] : memref<16xf32, strided<[1], offset: ?>, 3>
        %103 = arith.mulf %101, %cst_0 : f32
        %104 = arith.addf %103, %102 : f32
        %subview_39 = memref.subview %arg3[%c1_13, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %105 = memref.load %subview_39[%9] : memref<16xf32, strided<[1], offset: ?>, 3>
        %106 = arith.mulf %104, %cst_0 : f32
        %107 = arith.addf %106, %105 : f32
        %108 = arith.addf %107, %cst : f32
        %109 = arith.addi %26, %c3_14 : index
        %110 = arith.muli %109, %c4 : index
        %111 = arith.addi %110, %thread_id_x : index
        %112 = arith.muli %111, %c3 : index
        %113 = arith.addi %112, %c0 : index
        memref.store %108, %arg1[%113] : memref<384xf32>
        %subview_40 = memref.subview %arg4[%c1_13, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %114 = memref.load %subview_40[%13] : memref<16xf32, strided<[1], offset: ?>, 3>
        %subview_41 = memref.subview %arg4[%c1_13, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %115 = memref.load %subview_41[%15] : memref<16xf32, strided<[1], offset: ?>, 3>
        %116 = arith.mulf %114, %cst_0 : f32
        %117 = arith.addf %116, %115 : f32
        %subview_42 = memref.subview %arg4[%c1_13, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %118 = memref.load %subview_42[%17] : memref<16xf32, strided<[1], offset: ?>, 3>
        %119 = arith.mulf %117, %cst_0 : f32
        %120 = arith.addf %119, %118 : f32
        %subview_43 = memref.subview %arg4[%c1_13, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %121 = memref.load %subview_43[%19] : memref<16xf32, strided<[1], offset: ?>, 3>
        %122 = arith.mulf %120, %cst_0 : f32
        %123 = arith.addf %122, %121 : f32
        %124 = arith.addf %123, %cst : f32
        %125 = arith.addi %26, %c3_14 : index
        %126 = arith.muli %125, %c4 : index
        %127 = arith.addi %126, %thread_id_x : index
        %128 = arith.muli %127, %c3 : index
        %129 = arith.addi %128, %c1 : index
        memref.store %124, %arg1[%129] : memref<384xf32>
        %subview_44 = memref.subview %arg5[%c1_13, 0] [1, 4] [1, 1] : memref<5x4xf32, 3> to memref<4xf32, strided<[1], offset: ?>, 3>
        %130 = memref.load %subview_44[%23] : memref<4xf32, strided<[1], offset: ?>, 3>
        %131 = arith.addf %130, %cst : f32
        %132 = arith.addi %26, %c3_14 : index
        %133 = arith.muli %132, %c4 : index
        %134 = arith.addi %133, %thread_id_x : index
        %135 = arith.muli %134, %c3 : index
        %136 = arith.addi %135, %c2 : index
        memref.store %131, %arg1[%136] : memref<384xf32>
        gpu.barrier
        apipe.commit_group queue 0
        apipe.wait_group 3
        gpu.barrier
        %subview_45 = memref.subview %arg3[%c2_16, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %137 = memref.load %subview_45[%3] : memref<16xf32, strided<[1], offset: ?>, 3>
        %subview_46 = memref.subview %arg3[%c2_16, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %138 = memref.load %subview_46[%5] : memref<16xf32, strided<[1], offset: ?>, 3>
        %139 = arith.mulf %137, %cst_0 : f32
        %140 = arith.addf %139, %138 : f32
        %subview_47 = memref.subview %arg3[%c2_16, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %141 = memref.load %subview_47[%7] : memref<16xf32, strided<[1], offset: ?>, 3>
        %142 = arith.mulf %140, %cst_0 : f32
        %143 = arith.addf %142, %141 : f32
        %subview_48 = memref.subview %arg3[%c2_16, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %144 = memref.load %subview_48[%9] : memref<16xf32, strided<[1], offset: ?>, 3>
        %145 = arith.mulf %143, %cst_0 : f32
        %146 = arith.addf %145, %144 : f32
        %147 = arith.addf %146, %cst : f32
        %148 = arith.addi %26, %c5_15 : index
        %149 = arith.muli %148, %c4 : index
        %150 = arith.addi %149, %thread_id_x : index
        %151 = arith.muli %150, %c3 : index
        %152 = arith.addi %151, %c0 : index
        memref.store %147, %arg1[%152] : memref<384xf32>
        %subview_49 = memref.subview %arg4[%c2_16, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %153 = memref.load %subview_49[%13] : memref<16xf32, strided<[1], offset: ?>, 3>
        %subview_50 = memref.subview %arg4[%c2_16, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %154 = memref.load %subview_50[%15] : memref<16xf32, strided<[1], offset: ?>, 3>
        %155 = arith.mulf %153, %cst_0 : f32
        %156 = arith.addf %155, %154 : f32
        %subview_51 = memref.subview %arg4[%c2_16, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %157 = memref.load %subview_51[%17] : memref<16xf32, strided<[1], offset: ?>, 3>
        %158 = arith.mulf %156, %cst_0 : f32
        %159 = arith.addf %158, %157 : f32
        %subview_52 = memref.subview %arg4[%c2_16, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %160 = memref.load %subview_52[%19] : memref<16xf32, strided<[1], offset: ?>, 3>
        %161 = arith.mulf %159, %cst_0 : f32
        %162 = arith.addf %161, %160 : f32
        %163 = arith.addf %162, %cst : f32
        %164 = arith.addi %26, %c5_15 : index
        %165 = arith.muli %164, %c4 : index
        %166 = arith.addi %165, %thread_id_x : index
        %167 = arith.muli %166, %c3 : index
        %168 = arith.addi %167, %c1 : index
        memref.store %163, %arg1[%168] : memref<384xf32>
        %subview_53 = memref.subview %arg5[%c2_16, 0] [1, 4] [1, 1] : memref<5x4xf32, 3> to memref<4xf32, strided<[1], offset: ?>, 3>
        %169 = memref.load %subview_53[%23] : memref<4xf32, strided<[1], offset: ?>, 3>
        %170 = arith.addf %169, %cst : f32
        %171 = arith.addi %26, %c5_15 : index
        %172 = arith.muli %171, %c4 : index
        %173 = arith.addi %172, %thread_id_x : index
        %174 = arith.muli %173, %c3 : index
        %175 = arith.addi %174, %c2 : index
        memref.store %170, %arg1[%175] : memref<384xf32>
        gpu.barrier
        apipe.commit_group queue 0
        scf.yield
      }
      default {
        %32 = arith.addi %26, %c1_13 : index
        %33 = arith.muli %32, %c36 : index
        %34 = arith.addi %33, %1 : index
        gpu.barrier
        %subview = memref.subview %arg3[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%34], %subview[%0], 4 queue 0 : memref<1152xf32> to memref<16xf32, strided<[1], offset: ?>, 3>
        %35 = arith.addi %26, %c1_13 : index
        %36 = arith.muli %35, %c36 : index
        %37 = arith.addi %36, %11 : index
        %subview_19 = memref.subview %arg4[%c0_18, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%37], %subview_19[%10], 4 queue 0 : memref<1152xf32> to memref<16xf32, strided<[1], offset: ?>, 3>
        %38 = arith.addi %26, %c1_13 : index
        %39 = arith.muli %38, %c36 : index
        %40 = arith.addi %39, %21 : index
        %subview_20 = memref.subview %arg5[%c0_18, 0] [1, 4] [1, 1] : memref<5x4xf32, 3> to memref<4xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%40], %subview_20[%20], 1 queue 0 : memref<1152xf32> to memref<4xf32, strided<[1], offset: ?>, 3>
        apipe.commit_group queue 0
        %41 = arith.addi %26, %c3_14 : index
        %42 = arith.muli %41, %c36 : index
        %43 = arith.addi %42, %1 : index
        %subview_21 = memref.subview %arg3[%c1_13, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%43], %subview_21[%0], 4 queue 0 : memref<1152xf32> to memref<16xf32, strided<[1], offset: ?>, 3>
        %44 = arith.addi %26, %c3_14 : index
        %45 = arith.muli %44, %c36 : index
        %46 = arith.addi %45, %11 : index
        %subview_22 = memref.subview %arg4[%c1_13, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%46], %subview_22[%10], 4 queue 0 : memref<1152xf32> to memref<16xf32, strided<[1], offset: ?>, 3>
        %47 = arith.addi %26, %c3_14 : index
        %48 = arith.muli %47, %c36 : index
        %49 = arith.addi %48, %21 : index
        %subview_23 = memref.subview %arg5[%c1_13, 0] [1, 4] [1, 1] : memref<5x4xf32, 3> to memref<4xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%49], %subview_23[%20], 1 queue 0 : memref<1152xf32> to memref<4xf32, strided<[1], offset: ?>, 3>
        apipe.commit_group queue 0
        %50 = arith.addi %26, %c5_15 : index
        %51 = arith.muli %50, %c36 : index
        %52 = arith.addi %51, %1 : index
        %subview_24 = memref.subview %arg3[%c2_16, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%52], %subview_24[%0], 4 queue 0 : memref<1152xf32> to memref<16xf32, strided<[1], offset: ?>, 3>
        %53 = arith.addi %26, %c5_15 : index
        %54 = arith.muli %53, %c36 : index
        %55 = arith.addi %54, %11 : index
        %subview_25 = memref.subview %arg4[%c2_16, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%55], %subview_25[%10], 4 queue 0 : memref<1152xf32> to memref<16xf32, strided<[1], offset: ?>, 3>
        %56 = arith.addi %26, %c5_15 : index
        %57 = arith.muli %56, %c36 : index
        %58 = arith.addi %57, %21 : index
        %subview_26 = memref.subview %arg5[%c2_16, 0] [1, 4] [1, 1] : memref<5x4xf32, 3> to memref<4xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%58], %subview_26[%20], 1 queue 0 : memref<1152xf32> to memref<4xf32, strided<[1], offset: ?>, 3>
        apipe.commit_group queue 0
        %59 = arith.addi %26, %c7_17 : index
        %60 = arith.muli %59, %c36 : index
        %61 = arith.addi %60, %1 : index
        %subview_27 = memref.subview %arg3[%c3_14, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%61], %subview_27[%0], 4 queue 0 : memref<1152xf32> to memref<16xf32, strided<[1], offset: ?>, 3>
        %62 = arith.addi %26, %c7_17 : index
        %63 = arith.muli %62, %c36 : index
        %64 = arith.addi %63, %11 : index
        %subview_28 = memref.subview %arg4[%c3_14, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%64], %subview_28[%10], 4 queue 0 : memref<1152xf32> to memref<16xf32, strided<[1], offset: ?>, 3>
        %65 = arith.addi %26, %c7_17 : index
        %66 = arith.muli %65, %c36 : index
        %67 = arith.addi %66, %21 : index
        %subview_29 = memref.subview %arg5[%c3_14, 0] [1, 4] [1, 1] : memref<5x4xf32, 3> to memref<4xf32, strided<[1], offset: ?>, 3>
        apipe.copy %arg0[%67], %subview_29[%20], 1 queue 0 : memref<1152xf32> to memref<4xf32, strided<[1], offset: ?>, 3>
        apipe.commit_group queue 0
        %68 = arith.subi %30, %c4_12 : index
        scf.for %arg7 = %c0_18 to %68 step %c1_13 {
          apipe.wait_group 3
          gpu.barrier
          %241 = arith.remui %arg7, %c5_15 : index
          %subview_66 = memref.subview %arg3[%241, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
          %242 = memref.load %subview_66[%3] : memref<16xf32, strided<[1], offset: ?>, 3>
          %subview_67 = memref.subview %arg3[%241, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
          %243 = memref.load %subview_67[%5] : memref<16xf32, strided<[1], offset: ?>, 3>
          %244 = arith.mulf %242, %cst_0 : f32
          %245 = arith.addf %244, %243 : f32
          %subview_68 = memref.subview %arg3[%241, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
          %246 = memref.load %subview_68[%7] : memref<16xf32, strided<[1], offset: ?>, 3>
          %247 = arith.mulf %245, %cst_0 : f32
          %248 = arith.addf %247, %246 : f32
          %subview_69 = memref.subview %arg3[%241, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
          %249 = memref.load %subview_69[%9] : memref<16xf32, strided<[1], offset: ?>, 3>
          %250 = arith.mulf %248, %cst_0 : f32
          %251 = arith.addf %250, %249 : f32
          %252 = arith.addf %251, %cst : f32
          %253 = arith.muli %arg7, %c2 : index
          %254 = arith.addi %c1, %253 : index
          %255 = arith.addi %26, %254 : index
          %256 = arith.muli %255, %c4 : index
          %257 = arith.addi %256, %thread_id_x : index
          %258 = arith.muli %257, %c3 : index
          %259 = arith.addi %258, %c0 : index
          memref.store %252, %arg1[%259] : memref<384xf32>
          %subview_70 = memref.subview %arg4[%241, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
          %260 = memref.load %subview_70[%13] : memref<16xf32, strided<[1], offset: ?>, 3>
          %subview_71 = memref.subview %arg4[%241, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
          %261 = memref.load %subview_71[%15] : memref<16xf32, strided<[1], offset: ?>, 3>
          %262 = arith.mulf %260, %cst_0 : f32
          %263 = arith.addf %262, %261 : f32
          %subview_72 = memref.subview %arg4[%241, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
          %264 = memref.load %subview_72[%17] : memref<16xf32, strided<[1], offset: ?>, 3>
          %265 = arith.mulf %263, %cst_0 : f32
          %266 = arith.addf %265, %264 : f32
          %subview_73 = memref.subview %arg4[%241, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
          %267 = memref.load %subview_73[%19] : memref<16xf32, strided<[1], offset: ?>, 3>
          %268 = arith.mulf %266, %cst_0 : f32
          %269 = arith.addf %268, %267 : f32
          %270 = arith.addf %269, %cst : f32
          %271 = arith.addi %26, %254 : index
          %272 = arith.muli %271, %c4 : index
          %273 = arith.addi %272, %thread_id_x : index
          %274 = arith.muli %273, %c3 : index
          %275 = arith.addi %274, %c1 : index
          memref.store %270, %arg1[%275] : memref<384xf32>
          %subview_74 = memref.subview %arg5[%241, 0] [1, 4] [1, 1] : memref<5x4xf32, 3> to memref<4xf32, strided<[1], offset: ?>, 3>
          %276 = memref.load %subview_74[%23] : memref<4xf32, strided<[1], offset: ?>, 3>
          %277 = arith.addf %276, %cst : f32
          %278 = arith.addi %26, %254 : index
          %279 = arith.muli %278, %c4 : index
          %280 = arith.addi %279, %thread_id_x : index
          %281 = arith.muli %280, %c3 : index
          %282 = arith.addi %281, %c2 : index
          memref.store %277, %arg1[%282] : memref<384xf32>
          gpu.barrier
          %283 = arith.addi %arg7, %c4_12 : index
          %284 = arith.muli %283, %c2 : index
          %285 = arith.addi %c1, %284 : index
          %286 = arith.addi %26, %285 : index
          %287 = arith.muli %286, %c36 : index
          %288 = arith.addi %287, %1 : index
          %289 = arith.remui %283, %c5_15 : index
          %subview_75 = memref.subview %arg3[%289, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
          apipe.copy %arg0[%288], %subview_75[%0], 4 queue 0 : memref<1152xf32> to memref<16xf32, strided<[1], offset: ?>, 3>
          %290 = arith.addi %26, %285 : index
          %291 = arith.muli %290, %c36 : index
          %292 = arith.addi %291, %11 : index
          %subview_76 = memref.subview %arg4[%289, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
          apipe.copy %arg0[%292], %subview_76[%10], 4 queue 0 : memref<1152xf32> to memref<16xf32, strided<[1], offset: ?>, 3>
          %293 = arith.addi %26, %285 : index
          %294 = arith.muli %293, %c36 : index
          %295 = arith.addi %294, %21 : index
          %subview_77 = memref.subview %arg5[%289, 0] [1, 4] [1, 1] : memref<5x4xf32, 3> to memref<4xf32, strided<[1], offset: ?>, 3>
          apipe.copy %arg0[%295], %subview_77[%20], 1 queue 0 : memref<1152xf32> to memref<4xf32, strided<[1], offset: ?>, 3>
          apipe.commit_group queue 0
        }
        apipe.wait_group 3
        gpu.barrier
        %69 = arith.subi %30, %c4_12 : index
        %70 = arith.remui %69, %c5_15 : index
        %subview_30 = memref.subview %arg3[%70, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %71 = memref.load %subview_30[%3] : memref<16xf32, strided<[1], offset: ?>, 3>
        %subview_31 = memref.subview %arg3[%70, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %72 = memref.load %subview_31[%5] : memref<16xf32, strided<[1], offset: ?>, 3>
        %73 = arith.mulf %71, %cst_0 : f32
        %74 = arith.addf %73, %72 : f32
        %subview_32 = memref.subview %arg3[%70, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %75 = memref.load %subview_32[%7] : memref<16xf32, strided<[1], offset: ?>, 3>
        %76 = arith.mulf %74, %cst_0 : f32
        %77 = arith.addf %76, %75 : f32
        %subview_33 = memref.subview %arg3[%70, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %78 = memref.load %subview_33[%9] : memref<16xf32, strided<[1], offset: ?>, 3>
        %79 = arith.mulf %77, %cst_0 : f32
        %80 = arith.addf %79, %78 : f32
        %81 = arith.addf %80, %cst : f32
        %82 = arith.muli %69, %c2 : index
        %83 = arith.addi %c1, %82 : index
        %84 = arith.addi %26, %83 : index
        %85 = arith.muli %84, %c4 : index
        %86 = arith.addi %85, %thread_id_x : index
        %87 = arith.muli %86, %c3 : index
        %88 = arith.addi %87, %c0 : index
        memref.store %81, %arg1[%88] : memref<384xf32>
        %subview_34 = memref.subview %arg4[%70, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %89 = memref.load %subview_34[%13] : memref<16xf32, strided<[1], offset: ?>, 3>
        %subview_35 = memref.subview %arg4[%70, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %90 = memref.load %subview_35[%15] : memref<16xf32, strided<[1], offset: ?>, 3>
        %91 = arith.mulf %89, %cst_0 : f32
        %92 = arith.addf %91, %90 : f32
        %subview_36 = memref.subview %arg4[%70, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %93 = memref.load %subview_36[%17] : memref<16xf32, strided<[1], offset: ?>, 3>
        %94 = arith.mulf %92, %cst_0 : f32
        %95 = arith.addf %94, %93 : f32
        %subview_37 = memref.subview %arg4[%70, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %96 = memref.load %subview_37[%19] : memref<16xf32, strided<[1], offset: ?>, 3>
        %97 = arith.mulf %95, %cst_0 : f32
        %98 = arith.addf %97, %96 : f32
        %99 = arith.addf %98, %cst : f32
        %100 = arith.addi %26, %83 : index
        %101 = arith.muli %100, %c4 : index
        %102 = arith.addi %101, %thread_id_x : index
        %103 = arith.muli %102, %c3 : index
        %104 = arith.addi %103, %c1 : index
        memref.store %99, %arg1[%104] : memref<384xf32>
        %subview_38 = memref.subview %arg5[%70, 0] [1, 4] [1, 1] : memref<5x4xf32, 3> to memref<4xf32, strided<[1], offset: ?>, 3>
        %105 = memref.load %subview_38[%23] : memref<4xf32, strided<[1], offset: ?>, 3>
        %106 = arith.addf %105, %cst : f32
        %107 = arith.addi %26, %83 : index
        %108 = arith.muli %107, %c4 : index
        %109 = arith.addi %108, %thread_id_x : index
        %110 = arith.muli %109, %c3 : index
        %111 = arith.addi %110, %c2 : index
        memref.store %106, %arg1[%111] : memref<384xf32>
        gpu.barrier
        apipe.commit_group queue 0
        apipe.wait_group 3
        gpu.barrier
        %112 = arith.subi %30, %c3_14 : index
        %113 = arith.remui %112, %c5_15 : index
        %subview_39 = memref.subview %arg3[%113, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %114 = memref.load %subview_39[%3] : memref<16xf32, strided<[1], offset: ?>, 3>
        %subview_40 = memref.subview %arg3[%113, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %115 = memref.load %subview_40[%5] : memref<16xf32, strided<[1], offset: ?>, 3>
        %116 = arith.mulf %114, %cst_0 : f32
        %117 = arith.addf %116, %115 : f32
        %subview_41 = memref.subview %arg3[%113, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %118 = memref.load %subview_41[%7] : memref<16xf32, strided<[1], offset: ?>, 3>
        %119 = arith.mulf %117, %cst_0 : f32
        %120 = arith.addf %119, %118 : f32
        %subview_42 = memref.subview %arg3[%113, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %121 = memref.load %subview_42[%9] : memref<16xf32, strided<[1], offset: ?>, 3>
        %122 = arith.mulf %120, %cst_0 : f32
        %123 = arith.addf %122, %121 : f32
        %124 = arith.addf %123, %cst : f32
        %125 = arith.muli %112, %c2 : index
        %126 = arith.addi %c1, %125 : index
        %127 = arith.addi %26, %126 : index
        %128 = arith.muli %127, %c4 : index
        %129 = arith.addi %128, %thread_id_x : index
        %130 = arith.muli %129, %c3 : index
        %131 = arith.addi %130, %c0 : index
        memref.store %124, %arg1[%131] : memref<384xf32>
        %subview_43 = memref.subview %arg4[%113, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %132 = memref.load %subview_43[%13] : memref<16xf32, strided<[1], offset: ?>, 3>
        %subview_44 = memref.subview %arg4[%113, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %133 = memref.load %subview_44[%15] : memref<16xf32, strided<[1], offset: ?>, 3>
        %134 = arith.mulf %132, %cst_0 : f32
        %135 = arith.addf %134, %133 : f32
        %subview_45 = memref.subview %arg4[%113, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %136 = memref.load %subview_45[%17] : memref<16xf32, strided<[1], offset: ?>, 3>
        %137 = arith.mulf %135, %cst_0 : f32
        %138 = arith.addf %137, %136 : f32
        %subview_46 = memref.subview %arg4[%113, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %139 = memref.load %subview_46[%19] : memref<16xf32, strided<[1], offset: ?>, 3>
        %140 = arith.mulf %138, %cst_0 : f32
        %141 = arith.addf %140, %139 : f32
        %142 = arith.addf %141, %cst : f32
        %143 = arith.addi %26, %126 : index
        %144 = arith.muli %143, %c4 : index
        %145 = arith.addi %144, %thread_id_x : index
        %146 = arith.muli %145, %c3 : index
        %147 = arith.addi %146, %c1 : index
        memref.store %142, %arg1[%147] : memref<384xf32>
        %subview_47 = memref.subview %arg5[%113, 0] [1, 4] [1, 1] : memref<5x4xf32, 3> to memref<4xf32, strided<[1], offset: ?>, 3>
        %148 = memref.load %subview_47[%23] : memref<4xf32, strided<[1], offset: ?>, 3>
        %149 = arith.addf %148, %cst : f32
        %150 = arith.addi %26, %126 : index
        %151 = arith.muli %150, %c4 : index
        %152 = arith.addi %151, %thread_id_x : index
        %153 = arith.muli %152, %c3 : index
        %154 = arith.addi %153, %c2 : index
        memref.store %149, %arg1[%154] : memref<384xf32>
        gpu.barrier
        apipe.commit_group queue 0
        apipe.wait_group 3
        gpu.barrier
        %155 = arith.subi %30, %c2_16 : index
        %156 = arith.remui %155, %c5_15 : index
        %subview_48 = memref.subview %arg3[%156, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %157 = memref.load %subview_48[%3] : memref<16xf32, strided<[1], offset: ?>, 3>
        %subview_49 = memref.subview %arg3[%156, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %158 = memref.load %subview_49[%5] : memref<16xf32, strided<[1], offset: ?>, 3>
        %159 = arith.mulf %157, %cst_0 : f32
        %160 = arith.addf %159, %158 : f32
        %subview_50 = memref.subview %arg3[%156, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %161 = memref.load %subview_50[%7] : memref<16xf32, strided<[1], offset: ?>, 3>
        %162 = arith.mulf %160, %cst_0 : f32
        %163 = arith.addf %162, %161 : f32
        %subview_51 = memref.subview %arg3[%156, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %164 = memref.load %subview_51[%9] : memref<16xf32, strided<[1], offset: ?>, 3>
        %165 = arith.mulf %163, %cst_0 : f32
        %166 = arith.addf %165, %164 : f32
        %167 = arith.addf %166, %cst : f32
        %168 = arith.muli %155, %c2 : index
        %169 = arith.addi %c1, %168 : index
        %170 = arith.addi %26, %169 : index
        %171 = arith.muli %170, %c4 : index
        %172 = arith.addi %171, %thread_id_x : index
        %173 = arith.muli %172, %c3 : index
        %174 = arith.addi %173, %c0 : index
        memref.store %167, %arg1[%174] : memref<384xf32>
        %subview_52 = memref.subview %arg4[%156, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %175 = memref.load %subview_52[%13] : memref<16xf32, strided<[1], offset: ?>, 3>
        %subview_53 = memref.subview %arg4[%156, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %176 = memref.load %subview_53[%15] : memref<16xf32, strided<[1], offset: ?>, 3>
        %177 = arith.mulf %175, %cst_0 : f32
        %178 = arith.addf %177, %176 : f32
        %subview_54 = memref.subview %arg4[%156, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %179 = memref.load %subview_54[%17] : memref<16xf32, strided<[1], offset: ?>, 3>
        %180 = arith.mulf %178, %cst_0 : f32
        %181 = arith.addf %180, %179 : f32
        %subview_55 = memref.subview %arg4[%156, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %182 = memref.load %subview_55[%19] : memref<16xf32, strided<[1], offset: ?>, 3>
        %183 = arith.mulf %181, %cst_0 : f32
        %184 = arith.addf %183, %182 : f32
        %185 = arith.addf %184, %cst : f32
        %186 = arith.addi %26, %169 : index
        %187 = arith.muli %186, %c4 : index
        %188 = arith.addi %187, %thread_id_x : index
        %189 = arith.muli %188, %c3 : index
        %190 = arith.addi %189, %c1 : index
        memref.store %185, %arg1[%190] : memref<384xf32>
        %subview_56 = memref.subview %arg5[%156, 0] [1, 4] [1, 1] : memref<5x4xf32, 3> to memref<4xf32, strided<[1], offset: ?>, 3>
        %191 = memref.load %subview_56[%23] : memref<4xf32, strided<[1], offset: ?>, 3>
        %192 = arith.addf %191, %cst : f32
        %193 = arith.addi %26, %169 : index
        %194 = arith.muli %193, %c4 : index
        %195 = arith.addi %194, %thread_id_x : index
        %196 = arith.muli %195, %c3 : index
        %197 = arith.addi %196, %c2 : index
        memref.store %192, %arg1[%197] : memref<384xf32>
        gpu.barrier
        apipe.commit_group queue 0
        apipe.wait_group 3
        gpu.barrier
        %198 = arith.subi %30, %c1_13 : index
        %199 = arith.remui %198, %c5_15 : index
        %subview_57 = memref.subview %arg3[%199, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %200 = memref.load %subview_57[%3] : memref<16xf32, strided<[1], offset: ?>, 3>
        %subview_58 = memref.subview %arg3[%199, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %201 = memref.load %subview_58[%5] : memref<16xf32, strided<[1], offset: ?>, 3>
        %202 = arith.mulf %200, %cst_0 : f32
        %203 = arith.addf %202, %201 : f32
        %subview_59 = memref.subview %arg3[%199, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %204 = memref.load %subview_59[%7] : memref<16xf32, strided<[1], offset: ?>, 3>
        %205 = arith.mulf %203, %cst_0 : f32
        %206 = arith.addf %205, %204 : f32
        %subview_60 = memref.subview %arg3[%199, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %207 = memref.load %subview_60[%9] : memref<16xf32, strided<[1], offset: ?>, 3>
        %208 = arith.mulf %206, %cst_0 : f32
        %209 = arith.addf %208, %207 : f32
        %210 = arith.addf %209, %cst : f32
        %211 = arith.muli %198, %c2 : index
        %212 = arith.addi %c1, %211 : index
        %213 = arith.addi %26, %212 : index
        %214 = arith.muli %213, %c4 : index
        %215 = arith.addi %214, %thread_id_x : index
        %216 = arith.muli %215, %c3 : index
        %217 = arith.addi %216, %c0 : index
        memref.store %210, %arg1[%217] : memref<384xf32>
        %subview_61 = memref.subview %arg4[%199, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %218 = memref.load %subview_61[%13] : memref<16xf32, strided<[1], offset: ?>, 3>
        %subview_62 = memref.subview %arg4[%199, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %219 = memref.load %subview_62[%15] : memref<16xf32, strided<[1], offset: ?>, 3>
        %220 = arith.mulf %218, %cst_0 : f32
        %221 = arith.addf %220, %219 : f32
        %subview_63 = memref.subview %arg4[%199, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %222 = memref.load %subview_63[%17] : memref<16xf32, strided<[1], offset: ?>, 3>
        %223 = arith.mulf %221, %cst_0 : f32
        %224 = arith.addf %223, %222 : f32
        %subview_64 = memref.subview %arg4[%199, 0] [1, 16] [1, 1] : memref<5x16xf32, 3> to memref<16xf32, strided<[1], offset: ?>, 3>
        %225 = memref.load %subview_64[%19] : memref<16xf32, strided<[1], offset: ?>, 3>
        %226 = arith.mulf %224, %cst_0 : f32
        %227 = arith.addf %226, %225 : f32
        %228 = arith.addf %227, %cst : f32
        %229 = arith.addi %26, %212 : index
        %230 = arith.muli %229, %c4 : index
        %231 = arith.addi %230, %thread_id_x : index
        %232 = arith.muli %231, %c3 : index
        %233 = arith.addi %232, %c1 : index
        memref.store %228, %arg1[%233] : memref<384xf32>
        %subview_65 = memref.subview %arg5[%199, 0] [1, 4] [1, 1] : memref<5x4xf32, 3> to memref<4xf32, strided<[1], offset: ?>, 3>
        %234 = memref.load %subview_65[%23] : memref<4xf32, strided<[1], offset: ?>, 3>
        %235 = arith.addf %234, %cst : f32
        %236 = arith.addi %26, %212 : index
        %237 = arith.muli %236, %c4 : index
        %238 = arith.addi %237, %thread_id_x : index
        %239 = arith.muli %238, %c3 : index
        %240 = arith.addi %239, %c2 : index
        memref.store %235, %arg1[%240] : memref<384xf32>
        gpu.barrier
        apipe.commit_group queue 0
      }
    }
    gpu.return
  }
}
func.func @kernel(%arg0: memref<1152xf32>, %arg1: memref<384xf32>, %arg2: index, %arg3: i1) {
  %c1 = arith.constant 1 : index
  %c1_0 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch_func  @kernel_gpu::@kernel_k blocks in (%c1_0, %c1, %c1) threads in (%c4, %c1, %c1)  args(%arg0 : memref<1152xf32>, %arg1 : memref<384xf32>, %arg2 : index)
  return
}
}

