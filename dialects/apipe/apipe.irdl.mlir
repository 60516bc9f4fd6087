// Generated from dialects/apipe/ApipeOps.td by dialects/build.rs. Do not edit.
// Regenerate: APIPE_BLESS=1 cargo test -p apipe-dialect checked_in_irdl_is_current
irdl.dialect @apipe {
  irdl.type @token
  irdl.operation @copy {
    %0 = irdl.base "!builtin.memref"
    %1 = irdl.base "!builtin.memref"
    %2 = irdl.is index
    %3 = irdl.base "#builtin.integer"
    irdl.operands(src: %0, dst: %1, indices: variadic %2)
    irdl.attributes {"elements" = %3}
  }
  irdl.operation @commit_group {
    %0 = irdl.base @apipe::@token
    irdl.results(token: optional %0)
  }
  irdl.operation @wait_group {
    %0 = irdl.base "#builtin.integer"
    irdl.attributes {"pending" = %0}
  }
  irdl.operation @wait {
    %0 = irdl.base @apipe::@token
    irdl.operands(tokens: variadic %0)
  }
  irdl.operation @ready {
    %0 = irdl.base @apipe::@token
    irdl.results(token: %0)
  }
  irdl.operation @mbarrier_init {
    %0 = irdl.base "!builtin.memref"
    %1 = irdl.is index
    irdl.operands(ring: %0, count: %1)
  }
  irdl.operation @mbarrier_arrive_copies {
    %0 = irdl.base "!builtin.memref"
    %1 = irdl.is index
    irdl.operands(ring: %0, slot: %1)
  }
  irdl.operation @mbarrier_expect_tx {
    %0 = irdl.base "!builtin.memref"
    %1 = irdl.is index
    %2 = irdl.base "#builtin.integer"
    irdl.operands(ring: %0, slot: %1)
    irdl.attributes {"bytes" = %2}
  }
  irdl.operation @bulk_copy {
    %0 = irdl.base "!builtin.memref"
    %1 = irdl.base "!builtin.memref"
    %2 = irdl.base "!builtin.memref"
    %3 = irdl.is index
    %4 = irdl.is index
    %5 = irdl.base "#builtin.integer"
    irdl.operands(src: %0, dst: %1, ring: %2, slot: %3, indices: variadic %4)
    irdl.attributes {"elements" = %5}
  }
  irdl.operation @mbarrier_wait {
    %0 = irdl.base "!builtin.memref"
    %1 = irdl.is index
    %2 = irdl.is i1
    irdl.operands(ring: %0, slot: %1, parity: %2)
  }
}
