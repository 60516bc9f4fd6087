//! Names of the attributes apipe reads and writes, and typed readers for them.
//!
//! Op attributes (docs/dialect.md) are plain names on apipe ops; the
//! pipelining annotations (docs/annotations.md) are
//! dialect-prefixed discardable attributes on ops of an `scf.for` body.

use melior::ir::{
    attribute::{Attribute, IntegerAttribute},
    operation::OperationLike,
    AttributeLike,
};

/// `elements` on `apipe.copy`: elements written to `dst` (i64 > 0).
pub const ELEMENTS: &str = "elements";
/// `queue` on every apipe op but `wait`: the queue (i64 >= 0, absent = 0).
pub const QUEUE: &str = "queue";
/// `pending` on `apipe.wait_group`: newest groups left in flight (i64 >= 0).
pub const PENDING: &str = "pending";
/// `bytes` on `apipe.mbarrier_expect_tx`: transaction bytes (i64 in
/// [1, 2^20 - 1]).
pub const BYTES: &str = "bytes";
/// `bypass_l1` (unit) on `apipe.copy`: PTX `.cg` cache operator.
pub const BYPASS_L1: &str = "bypass_l1";
/// `apipe.stage = k : i64` on an op of a pipelined `scf.for` body.
pub const STAGE: &str = "apipe.stage";
/// `apipe.order = k : i64` on an op of a pipelined `scf.for` body.
pub const ORDER: &str = "apipe.order";
/// `apipe.async_stages = array<i64: ...>` on a pipelined `scf.for`.
pub const ASYNC_STAGES: &str = "apipe.async_stages";
/// `apipe.num_stages = N : i64` on an `scf.for`: the pipeliner picks the
/// stages of the ops that have no `apipe.stage`, with `N` stages.
pub const NUM_STAGES: &str = "apipe.num_stages";

/// The value of the integer attribute named `name` on `op` (of any width);
/// `None` if absent or not an integer (the verifier reports the latter).
pub fn integer<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>, name: &str) -> Option<i64> {
    let attribute = op.attribute(name).ok()?;
    // An integer wider than 64 bits may not fit an i64 (MLIR's C API gives
    // its low 64 bits: an `i128` 2^64 + 3 read as 3, trial 36).
    if integer_width(attribute.r#type()).is_some_and(|bits| bits > 64) {
        return None;
    }
    IntegerAttribute::try_from(attribute)
        .ok()
        .map(|integer| integer.value())
}

/// True if `attribute` is an integer attribute of the signless type `i64`
/// (ODS `I64Attr`).
pub fn is_i64(attribute: Attribute) -> bool {
    // Compare the type structurally: printing it costs a printer per call.
    IntegerAttribute::try_from(attribute).is_ok()
        && melior::ir::r#type::IntegerType::try_from(attribute.r#type())
            .is_ok_and(|t| t.width() == 64 && t.is_signless())
}

/// The queue of an apipe op: its `queue` attribute, 0 when absent or invalid
/// (the verifier reports invalid ones).
pub fn queue<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> i64 {
    integer(op, QUEUE).unwrap_or(0)
}

/// The width of an integer type, `None` for any other type.
pub fn integer_width(ty: melior::ir::Type) -> Option<u32> {
    use melior::ir::TypeLike as _;
    // Asked of the type's kind first: melior's `IntegerType::try_from`
    // prints the type into its error when it is not one (an `index`
    // constant cost a printer per call, 13% of the pipeliner).
    // SAFETY: a live type; its width is read only if it is an integer type.
    unsafe {
        mlir_sys::mlirTypeIsAInteger(ty.to_raw())
            .then(|| mlir_sys::mlirIntegerTypeGetWidth(ty.to_raw()))
    }
}

/// The number of a memory-space attribute (of a memref type): an integer
/// space is its value (`3`, `3 : i64`); a `#gpu.address_space<...>` is its
/// NVVM number (global 1, workgroup 3, private 5); no attribute is 0 (the
/// default space); `None` for any other attribute.
///
/// An integer is read as one, and only an attribute of the GPU dialect is
/// printed (the C API has no accessor for its value): printing builds
/// MLIR's printer state, and passes ask this of every buffer they see.
pub fn memory_space_number(space: Option<Attribute>) -> Option<i64> {
    let Some(space) = space else {
        return Some(0);
    };
    if let Ok(integer) = IntegerAttribute::try_from(space) {
        return Some(integer.value());
    }
    // SAFETY: `space` is a live attribute; its dialect lives as long as
    // the context, and its namespace is a string of that dialect.
    let gpu = unsafe {
        let dialect = mlir_sys::mlirAttributeGetDialect(space.to_raw());
        let namespace = mlir_sys::mlirDialectGetNamespace(dialect);
        !namespace.data.is_null()
            && std::slice::from_raw_parts(namespace.data as *const u8, namespace.length) == b"gpu"
    };
    if !gpu {
        return None;
    }
    match space.to_string().as_str() {
        "#gpu.address_space<global>" => Some(1),
        "#gpu.address_space<workgroup>" => Some(3),
        "#gpu.address_space<private>" => Some(5),
        _ => None,
    }
}
