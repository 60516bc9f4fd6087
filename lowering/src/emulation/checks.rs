//! Run-time checks of `apipe-run`: each failing check stops the program
//! with a located error (the runtime's `apipe_emu_check_failed` /
//! `apipe_emu_bad_step`) instead of an abort, a hang or memory corruption.
//!
//! 1. `cf.assert %ok, "msg"` (from MLIR's `generate-runtime-verification`,
//!    which `apipe-run` runs by default, or the program's own) becomes
//!    `scf.if !%ok { call @apipe_emu_check_failed(id) }`; the message of a
//!    generated check ("... ^ out-of-bounds access ...") is shortened to
//!    "'memref.load' out-of-bounds access".
//! 2. `scf.for` whose step is not a positive constant: before the loop,
//!    a step `<= 0` (`== 0` for `unsigned` loops) calls
//!    `apipe_emu_bad_step(id, step)`: such a loop is undefined behaviour
//!    in `scf.for` and would not terminate.
//! 3. (with bounds checks) `vector.load` / `vector.store` and the dims of
//!    `vector.transfer_read` / `transfer_write` that claim `in_bounds`
//!    (an access past the end there is undefined behaviour; the other
//!    dims are masked), which `generate-runtime-verification` does not
//!    check in MLIR 22: each index of the memref must satisfy `0 <= i` and
//!    `i + n <= size`, `n` the vector's extent along that dimension (for a
//!    transfer, through its `permutation_map`; 1 for the other dims).
//! 4. `memref.alloc` of default (host or per-thread) memory: after it, a
//!    null aligned pointer (`malloc` failed: the program asked for more
//!    memory than the process may have) calls `apipe_emu_check_failed`
//!    ("'memref.alloc' failed: out of memory"), before any use of the
//!    buffer could fault; then `apipe_emu_alloc(id, aligned pointer)`
//!    makes the buffer live for the runtime's dealloc check
//!    ([`crate::emulation_runtime::heap`]).
//! 5. use after free: for a `memref.alloc` of default memory that a
//!    `memref.dealloc` frees (the alloc's result or a view of it), before
//!    each other op that uses the buffer or a view of it, a call
//!    `apipe_emu_live(id, aligned pointer of the alloc)`; the runtime stops
//!    the program at that op if the buffer has been freed. Not uses: view
//!    ops (their results are followed), the dealloc, metadata ops
//!    (`memref.dim`, `memref.rank`, `memref.extract_*`), terminators, loop
//!    inits (`scf.for`, `scf.while`) and the runtime's own calls but the
//!    copies. Views are followed within the function only (not through
//!    calls, block arguments or iter_args).
//! 6. integer division (`arith.divui`, `remui`, `ceildivui`, `divsi`,
//!    `remsi`, `ceildivsi`, `floordivsi`) on scalars: a divisor 0, and for
//!    the signed ones the minimum value divided by -1, call
//!    `apipe_emu_check_failed` before the op: both are undefined behaviour
//!    in `arith` (the LLVM lowering makes them poison or a hardware trap, and
//!    a poisoned index then reaches memory unchecked), at every width.
//!    Constant divisors
//!    that rule a case out get no check; vector divisions are not checked.

use super::Emitter;
use crate::emulation_runtime::{ALLOC_FN, BAD_STEP_FN, CHECK_FAILED_FN, COPY_FN_PREFIX, LIVE_FN};
use apipe_dialect::{effects::view_source, ops};
use apipe_passes::token_values::users;
use melior::{
    dialect::arith::{self, CmpiPredicate},
    ir::{
        attribute::{IntegerAttribute, StringAttribute},
        operation::OperationLike,
        r#type::{IntegerType, MemRefType, ShapedTypeLike},
        AttributeLike, OperationRef, Type, TypeLike, Value, ValueLike,
    },
};
use mlir_sys::{mlirOperationDestroy, mlirShapedTypeGetDimSize, mlirTypeIsAVector};

/// Steps 1-6 on every op nested in `root`.
pub fn insert<'c: 'a, 'a>(
    root: &impl OperationLike<'c, 'a>,
    emitter: &mut Emitter<'c, 'a>,
    bounds: bool,
) {
    for op in ops::nested_ops(root) {
        if ops::is(&op, "cf.assert") {
            lower_assert(op, emitter);
        } else if ops::is(&op, "scf.for") {
            check_step(op, emitter);
        } else if bounds && VECTOR_ACCESSES.iter().any(|name| ops::is(&op, name)) {
            check_vector_access(op, emitter);
        } else if ops::is(&op, "memref.alloc") {
            if let Some(buffer) = host_buffer(&op) {
                check_allocation(op, buffer, emitter);
                check_uses_after_free(buffer, emitter);
            }
        } else if let Some(&(_, signed)) = DIVISIONS.iter().find(|(n, _)| ops::is(&op, n)) {
            check_division(op, emitter, signed);
        }
    }
}

/// The message of a failed `cf.assert` with text `text`.
pub fn assert_message(text: &str) -> String {
    const GENERATED: &str = "ERROR: Runtime op verification failed";
    let Some(rest) = text.strip_prefix(GENERATED) else {
        return format!("'cf.assert' failed: {text}");
    };
    let mut lines = rest.lines().filter(|l| !l.is_empty());
    let op_text = lines.next().unwrap_or("");
    let reason = lines
        .find_map(|l| l.trim_start().strip_prefix("^ "))
        .unwrap_or("check failed");
    // "%0 = memref.load ..." or "memref.store ...": the op's name.
    let name = op_text
        .split_once(" = ")
        .map_or(op_text, |(_, r)| r)
        .split_whitespace()
        .next()
        .unwrap_or("?")
        .trim_matches('"');
    format!("'{name}' {reason}")
}

/// Step 1.
fn lower_assert<'c, 'a>(op: OperationRef<'c, 'a>, emitter: &mut Emitter<'c, 'a>) {
    let text = op
        .attribute("msg")
        .ok()
        .and_then(|a| StringAttribute::try_from(a).ok())
        .map(|s| s.value().to_owned())
        .unwrap_or_default();
    let id = emitter.id(op.location(), &assert_message(&text));
    let condition = op.operand(0).unwrap();
    let location = op.location();
    let i1 = condition.r#type();
    let one = emitter
        .before(
            op,
            arith::constant(
                emitter.context,
                IntegerAttribute::new(i1, 1).into(),
                location,
            ),
        )
        .result(0)
        .unwrap()
        .into();
    let failed: Value = emitter
        .before(op, arith::xori(condition, one, location))
        .result(0)
        .unwrap()
        .into();
    let id = emitter.constant(op, emitter.i64_type(), id);
    emitter.call_if(op, failed, CHECK_FAILED_FN, &[id]);
    // SAFETY: `cf.assert` has no results; no handle to it is used again.
    unsafe { mlirOperationDestroy(op.to_raw()) }
}

/// The value of `value` if an `arith.constant` defines it.
pub fn constant_value(value: Value) -> Option<i64> {
    let result = melior::ir::operation::OperationResult::try_from(value).ok()?;
    let owner = result.owner();
    if !ops::is(&owner, "arith.constant") {
        return None;
    }
    IntegerAttribute::try_from(owner.attribute("value").ok()?)
        .ok()
        .map(|a| a.value())
}

/// Step 2.
fn check_step<'c, 'a>(op: OperationRef<'c, 'a>, emitter: &mut Emitter<'c, 'a>) {
    let Ok(step) = op.operand(2) else {
        return;
    };
    let unsigned = op.attribute("unsignedCmp").is_ok();
    if constant_value(step).is_some_and(|s| s > 0 || unsigned && s != 0) {
        return;
    }
    let id = emitter.id(op.location(), "");
    let location = op.location();
    let zero = emitter.constant(op, step.r#type(), 0);
    let predicate = if unsigned {
        CmpiPredicate::Eq
    } else {
        CmpiPredicate::Sle
    };
    let bad: Value = emitter
        .before(
            op,
            arith::cmpi(emitter.context, predicate, step, zero, location),
        )
        .result(0)
        .unwrap()
        .into();
    let id = emitter.constant(op, emitter.i64_type(), id);
    let step = emitter.to_i64(op, step);
    emitter.call_if(op, bad, BAD_STEP_FN, &[id, step]);
}

/// The integer divisions of `arith` (step 6), and whether they are signed.
const DIVISIONS: &[(&str, bool)] = &[
    ("arith.divui", false),
    ("arith.remui", false),
    ("arith.ceildivui", false),
    ("arith.divsi", true),
    ("arith.remsi", true),
    ("arith.ceildivsi", true),
    ("arith.floordivsi", true),
];

/// Step 6.
fn check_division<'c, 'a>(op: OperationRef<'c, 'a>, emitter: &mut Emitter<'c, 'a>, signed: bool) {
    let (Ok(dividend), Ok(divisor)) = (op.operand(0), op.operand(1)) else {
        return;
    };
    let ty = divisor.r#type();
    let width = if ty.is_index() {
        64
    } else if let Ok(integer) = IntegerType::try_from(ty) {
        integer.width()
    } else {
        return;
    };
    let name = ops::name(&op);
    let location = op.location();
    let constant = constant_value(divisor);
    let compare =
        |emitter: &mut Emitter<'c, 'a>, value: Value<'c, 'a>, with: i64| -> Value<'c, 'a> {
            let with = emitter.constant(op, ty, with);
            emitter
                .before(
                    op,
                    arith::cmpi(emitter.context, CmpiPredicate::Eq, value, with, location),
                )
                .result(0)
                .unwrap()
                .into()
        };
    if constant.is_none_or(|d| d == 0) {
        let id = emitter.id(location, &format!("'{name}' division by zero"));
        let zero = compare(emitter, divisor, 0);
        let id = emitter.constant(op, emitter.i64_type(), id);
        emitter.call_if(op, zero, CHECK_FAILED_FN, &[id]);
    }
    if signed && width >= 1 && constant.is_none_or(|d| d == -1) {
        let id = emitter.id(
            location,
            &format!("'{name}' overflow: the minimum value divided by -1"),
        );
        let (minimum, minus_one) = if width <= 64 {
            (
                compare(emitter, dividend, i64::MIN >> (64 - width)),
                compare(emitter, divisor, -1),
            )
        } else {
            // Wider than an i64 attribute can spell: 1 << (width - 1) and
            // 0 - 1, computed.
            let one = emitter.constant(op, ty, 1);
            let zero = emitter.constant(op, ty, 0);
            let shift = emitter.constant(op, ty, i64::from(width) - 1);
            let value = |emitter: &Emitter<'c, 'a>, operation| -> Value<'c, 'a> {
                emitter.before(op, operation).result(0).unwrap().into()
            };
            let minimum = value(emitter, arith::shli(one, shift, location));
            let minus_one = value(emitter, arith::subi(zero, one, location));
            (
                value(
                    emitter,
                    arith::cmpi(
                        emitter.context,
                        CmpiPredicate::Eq,
                        dividend,
                        minimum,
                        location,
                    ),
                ),
                value(
                    emitter,
                    arith::cmpi(
                        emitter.context,
                        CmpiPredicate::Eq,
                        divisor,
                        minus_one,
                        location,
                    ),
                ),
            )
        };
        let overflow: Value = emitter
            .before(op, arith::andi(minimum, minus_one, location))
            .result(0)
            .unwrap()
            .into();
        let id = emitter.constant(op, emitter.i64_type(), id);
        emitter.call_if(op, overflow, CHECK_FAILED_FN, &[id]);
    }
}

/// The message of a failed `memref.alloc`.
pub const ALLOC_FAILED: &str = "'memref.alloc' failed: out of memory";

/// The buffer `memref.alloc` op `op` returns, if it is of default (host or
/// per-thread) memory: workgroup and other memory spaces are the lowering's
/// own buffers, which steps 4 and 5 leave alone.
fn host_buffer<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<Value<'c, 'a>> {
    let result = op.result(0).ok()?;
    let ty = MemRefType::try_from(result.r#type()).ok()?;
    ty.memory_space().is_none().then(|| result.into())
}

/// Step 4, for the buffer `buffer` of alloc op `op`.
fn check_allocation<'c, 'a>(
    op: OperationRef<'c, 'a>,
    buffer: Value<'c, 'a>,
    emitter: &mut Emitter<'c, 'a>,
) {
    // An alloc is never a terminator: its next op exists.
    let Some(next) = op.next_in_block() else {
        return;
    };
    let location = op.location();
    let id = emitter.id(location, ALLOC_FAILED);
    let pointer = aligned_pointer(emitter, next, buffer);
    let zero = emitter.constant(next, emitter.index_type(), 0);
    let null: Value = emitter
        .before(
            next,
            arith::cmpi(emitter.context, CmpiPredicate::Eq, pointer, zero, location),
        )
        .result(0)
        .unwrap()
        .into();
    let id = emitter.constant(next, emitter.i64_type(), id);
    emitter.call_if(next, null, CHECK_FAILED_FN, &[id]);
    let pointer = emitter.to_i64(next, pointer);
    emitter.call(next, ALLOC_FN, &[id, pointer], &[]);
}

/// `memref.extract_aligned_pointer_as_index` of `memref`, before `op`.
fn aligned_pointer<'c, 'a>(
    emitter: &Emitter<'c, 'a>,
    op: OperationRef<'c, 'a>,
    memref: Value<'c, 'a>,
) -> Value<'c, 'a> {
    emitter
        .before(
            op,
            melior::ir::operation::OperationBuilder::new(
                "memref.extract_aligned_pointer_as_index",
                op.location(),
            )
            .add_operands(&[memref])
            .add_results(&[emitter.index_type()])
            .build()
            .expect("valid memref.extract_aligned_pointer_as_index"),
        )
        .result(0)
        .unwrap()
        .into()
}

/// Users of a buffer that do not read or write its memory (step 5).
const NOT_USES: &[&str] = &[
    "memref.dealloc",
    "memref.dim",
    "memref.rank",
    "memref.extract_aligned_pointer_as_index",
    "memref.extract_strided_metadata",
    "scf.for",
    "scf.while",
];

/// View ops of their operand 0 that MLIR 22 may not mark as
/// `ViewLikeOpInterface` (step 5).
const VIEWS: &[&str] = &[
    "memref.assume_alignment",
    "memref.memory_space_cast",
    "memref.cast",
    "memref.transpose",
    "memref.reinterpret_cast",
];

/// Step 5, for the buffer `buffer` of an alloc.
fn check_uses_after_free<'c, 'a>(buffer: Value<'c, 'a>, emitter: &mut Emitter<'c, 'a>) {
    let mut freed = false;
    let mut uses: Vec<(OperationRef, String)> = Vec::new();
    let mut values = vec![buffer];
    while let Some(value) = values.pop() {
        for user in users(value) {
            let name = ops::name(&user);
            if name == "memref.dealloc" {
                freed = true;
                continue;
            }
            // View ops, and those MLIR 22 may not mark `ViewLikeOpInterface`.
            let view = view_source(&user).is_some_and(|source| source == value)
                || (VIEWS.contains(&name.as_str()) && user.operand(0).ok() == Some(value));
            if view {
                values.extend(user.result(0).ok().map(Value::from));
                continue;
            }
            // Step 6 made each `apipe.copy` a call of the runtime.
            let callee = ops::is(&user, "func.call")
                .then(|| user.attribute("callee").ok().map(|c| c.to_string()))
                .flatten()
                .unwrap_or_default();
            let copy = callee.starts_with(&format!("@{COPY_FN_PREFIX}"));
            let runtime_call = callee.starts_with("@apipe_emu_") && !copy;
            let terminator = user.next_in_block().is_none();
            if NOT_USES.contains(&name.as_str()) || runtime_call || terminator {
                continue;
            }
            if !uses.iter().any(|(u, _)| *u == user) {
                uses.push((user, if copy { ops::COPY.to_owned() } else { name }));
            }
        }
    }
    if !freed {
        return;
    }
    for (user, name) in uses {
        let id = emitter.id(user.location(), "");
        emitter.name(id, &name);
        let pointer = aligned_pointer(emitter, user, buffer);
        let pointer = emitter.to_i64(user, pointer);
        let id = emitter.constant(user, emitter.i64_type(), id);
        emitter.call(user, LIVE_FN, &[id, pointer], &[]);
    }
}

/// The vector ops step 3 checks.
const VECTOR_ACCESSES: &[&str] = &[
    "vector.load",
    "vector.store",
    "vector.transfer_read",
    "vector.transfer_write",
];

/// The `in_bounds` flags of a transfer op with a vector of `rank` dims:
/// all false where the attribute is absent or unreadable (every dim then
/// masked: nothing to check).
fn in_bounds_flags(op: &OperationRef, rank: usize) -> Vec<bool> {
    let mut flags = vec![false; rank];
    let Ok(attribute) = op.attribute("in_bounds") else {
        return flags;
    };
    // SAFETY: a live attribute, checked to be an array; elements read
    // within its count and checked to be bools.
    unsafe {
        let raw = attribute.to_raw();
        if !mlir_sys::mlirAttributeIsAArray(raw) {
            return flags;
        }
        let n = mlir_sys::mlirArrayAttrGetNumElements(raw) as usize;
        for (j, flag) in flags.iter_mut().enumerate().take(n) {
            let element = mlir_sys::mlirArrayAttrGetElement(raw, j as isize);
            *flag =
                mlir_sys::mlirAttributeIsABool(element) && mlir_sys::mlirBoolAttrGetValue(element);
        }
    }
    flags
}

/// Step 3.
fn check_vector_access<'c, 'a>(op: OperationRef<'c, 'a>, emitter: &mut Emitter<'c, 'a>) {
    let reads = ops::is(&op, "vector.load") || ops::is(&op, "vector.transfer_read");
    let (memref_index, vector_type) = if reads {
        (0, op.result(0).map(|r| r.r#type()))
    } else {
        (1, op.operand(0).map(|v| v.r#type()))
    };
    let (Ok(memref), Ok(vector_type)) = (op.operand(memref_index), vector_type) else {
        return;
    };
    let Ok(memref_type) = MemRefType::try_from(memref.r#type()) else {
        return;
    };
    // SAFETY: accessors on the type kinds they are defined for.
    let shape: Vec<i64> = unsafe {
        if !mlirTypeIsAVector(vector_type.to_raw()) {
            return;
        }
        let rank = mlir_sys::mlirShapedTypeGetRank(vector_type.to_raw()) as usize;
        (0..rank)
            .map(|d| mlirShapedTypeGetDimSize(vector_type.to_raw(), d as isize))
            .collect()
    };
    let rank = memref_type.rank();
    if shape.len() > rank {
        return;
    }
    // Per memref dim: the extent to check, or `None` for a transfer dim
    // that is not `in_bounds` (the transfer masks it).
    let extents: Vec<Option<i64>> = if ops::name(&op).starts_with("vector.transfer_") {
        let Some(dims) = super::hooks::transfer_dims(&op, rank, shape.len()) else {
            return;
        };
        let in_bounds = in_bounds_flags(&op, shape.len());
        dims.into_iter()
            .map(|j| match j {
                None => Some(1),
                Some(j) if in_bounds[j] => Some(shape[j]),
                Some(_) => None,
            })
            .collect()
    } else {
        (0..rank)
            .map(|d| {
                Some(if d + shape.len() >= rank {
                    shape[d + shape.len() - rank]
                } else {
                    1
                })
            })
            .collect()
    };
    if extents.iter().all(Option::is_none) {
        return;
    }
    let name = ops::name(&op);
    let id = emitter.id(op.location(), &format!("'{name}' out-of-bounds access"));
    let location = op.location();
    let index: Type = emitter.index_type();
    let context = emitter.context;
    let mut bad: Option<Value> = None;
    for (d, extent) in extents.into_iter().enumerate() {
        let Ok(i) = op.operand(memref_index + 1 + d) else {
            return;
        };
        let Some(extent) = extent else {
            continue;
        };
        let d_const = emitter.constant(op, index, d as i64);
        let size: Value = emitter
            .before(
                op,
                melior::ir::operation::OperationBuilder::new("memref.dim", location)
                    .add_operands(&[memref, d_const])
                    .add_results(&[index])
                    .build()
                    .expect("valid memref.dim"),
            )
            .result(0)
            .unwrap()
            .into();
        let n = emitter.constant(op, index, extent);
        let zero = emitter.constant(op, index, 0);
        // Out of bounds: i < 0, or i > size - n (as signed numbers).
        let limit: Value = emitter
            .before(op, arith::subi(size, n, location))
            .result(0)
            .unwrap()
            .into();
        let below: Value = emitter
            .before(
                op,
                arith::cmpi(context, CmpiPredicate::Slt, i, zero, location),
            )
            .result(0)
            .unwrap()
            .into();
        let above: Value = emitter
            .before(
                op,
                arith::cmpi(context, CmpiPredicate::Sgt, i, limit, location),
            )
            .result(0)
            .unwrap()
            .into();
        for term in [below, above] {
            bad = Some(match bad {
                None => term,
                Some(b) => emitter
                    .before(op, arith::ori(b, term, location))
                    .result(0)
                    .unwrap()
                    .into(),
            });
        }
    }
    if let Some(bad) = bad {
        let id = emitter.constant(op, emitter.i64_type(), id);
        emitter.call_if(op, bad, CHECK_FAILED_FN, &[id]);
    }
}

#[cfg(test)]
mod tests {
    use super::assert_message;

    #[test]
    fn generated_messages_name_the_op_and_the_reason() {
        assert_eq!(
            assert_message(
                "ERROR: Runtime op verification failed\n%0 = memref.load %arg0[%arg1] : memref<4xf32>\n^ out-of-bounds access\nLocation: loc(\"a.mlir\":2:8)"
            ),
            "'memref.load' out-of-bounds access"
        );
        assert_eq!(
            assert_message(
                "ERROR: Runtime op verification failed\nmemref.store %0, %arg0[%arg1] : memref<4xf32>\n^ out-of-bounds access\nLocation: x"
            ),
            "'memref.store' out-of-bounds access"
        );
        assert_eq!(assert_message("mine"), "'cf.assert' failed: mine");
    }
}
