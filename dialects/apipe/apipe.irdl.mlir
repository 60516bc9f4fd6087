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
}
