//! What MLIR says an op does to memory: `MemoryEffectOpInterface`,
//! `HasRecursiveMemoryEffects` and `ViewLikeOpInterface`, which the MLIR C
//! API does not expose (`capi/ApipeEffects.cpp` forwards them).
//!
//! This module only reports the interfaces' answers. Turning them into
//! accesses (which buffer, which elements; ops without the interface, effects
//! on no value) is the job of `apipe_passes::access`.

use melior::ir::{operation::OperationLike, Value};
use mlir_sys::{MlirOperation, MlirValue};

/// The kind of a memory effect (`MemoryEffects::Effect` subclasses).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EffectKind {
    /// `MemoryEffects::Read`.
    Read,
    /// `MemoryEffects::Write`.
    Write,
    /// `MemoryEffects::Allocate`.
    Allocate,
    /// `MemoryEffects::Free`.
    Free,
    /// An effect of another kind (a dialect's own).
    Other,
}

/// One `MemoryEffects::EffectInstance` of an op.
#[derive(Clone, Copy, Debug)]
pub struct MemoryEffect<'c, 'a> {
    /// What the effect does.
    pub kind: EffectKind,
    /// The value (an operand or result of the op) the effect is on; `None`
    /// if it is on no particular value (for example, any memory).
    pub value: Option<Value<'c, 'a>>,
    /// True if the effect is on MLIR's `DefaultResource` (memory in
    /// general); false for a dialect's own resource (e.g. the automatic
    /// allocation scope of `memref.alloca`).
    pub default_resource: bool,
}

/// The memory effects of one op, as MLIR declares them.
#[derive(Clone, Debug)]
pub struct OpEffects<'c, 'a> {
    /// `Some` if the op implements `MemoryEffectOpInterface`: exactly these
    /// effects (an empty list: none). `None` if it does not (a call, an
    /// unregistered op): its effects are unknown.
    pub declared: Option<Vec<MemoryEffect<'c, 'a>>>,
    /// True if the op has `HasRecursiveMemoryEffects`: the effects of the
    /// ops in its regions are its own too (`scf.for`, `scf.if`, ...).
    pub recursive: bool,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct RawEffect {
    kind: i32,
    value: MlirValue,
    default_resource: bool,
}

unsafe extern "C" {
    fn apipeOperationGetMemoryEffects(
        op: MlirOperation,
        out: *mut RawEffect,
        capacity: isize,
        status: *mut i32,
    ) -> isize;
    fn apipeViewLikeOpGetViewSource(op: MlirOperation) -> MlirValue;
}

/// `status` bit of `apipeOperationGetMemoryEffects`: the interface exists.
const HAS_INTERFACE: i32 = 1;
/// `status` bit: `HasRecursiveMemoryEffects`.
const RECURSIVE: i32 = 2;

/// The memory effects MLIR declares for `op`.
pub fn memory_effects<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> OpEffects<'c, 'a> {
    let empty = RawEffect {
        kind: 4,
        value: MlirValue {
            ptr: std::ptr::null(),
        },
        default_resource: true,
    };
    let mut buffer = vec![empty; 4];
    let mut status = 0;
    loop {
        // SAFETY: `op` is live; the buffer holds `len` entries.
        let count = unsafe {
            apipeOperationGetMemoryEffects(
                op.to_raw(),
                buffer.as_mut_ptr(),
                buffer.len() as isize,
                &mut status,
            )
        } as usize;
        if count > buffer.len() {
            buffer = vec![empty; count];
            continue;
        }
        buffer.truncate(count);
        break;
    }
    let declared = (status & HAS_INTERFACE != 0).then(|| {
        buffer
            .iter()
            .map(|raw| MemoryEffect {
                kind: match raw.kind {
                    0 => EffectKind::Read,
                    1 => EffectKind::Write,
                    2 => EffectKind::Allocate,
                    3 => EffectKind::Free,
                    _ => EffectKind::Other,
                },
                // SAFETY: a non-null value of a live op (its operand or
                // result), valid as long as the op.
                value: (!raw.value.ptr.is_null()).then(|| unsafe { Value::from_raw(raw.value) }),
                default_resource: raw.default_resource,
            })
            .collect()
    });
    OpEffects {
        declared,
        recursive: status & RECURSIVE != 0,
    }
}

/// The buffer `op` makes a view of (`ViewLikeOpInterface::getViewSource`:
/// `memref.subview`, `memref.cast`, `memref.expand_shape`, ...), or `None`
/// if `op` is not a view op.
pub fn view_source<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<Value<'c, 'a>> {
    // SAFETY: `op` is live; a non-null result is one of its operands.
    let raw = unsafe { apipeViewLikeOpGetViewSource(op.to_raw()) };
    // SAFETY: non-null, a value of a live op.
    (!raw.ptr.is_null()).then(|| unsafe { Value::from_raw(raw) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::{BlockLike, Module, OperationRef, RegionLike, ValueLike};

    fn ops_of<'c, 'a>(module: &'a Module<'c>) -> Vec<OperationRef<'c, 'a>> {
        let function = module.body().first_operation().unwrap();
        let block = function.region(0).unwrap().first_block().unwrap();
        let mut out = Vec::new();
        let mut next = block.first_operation();
        while let Some(op) = next {
            out.push(op);
            next = op.next_in_block();
        }
        out
    }

    #[test]
    fn loads_stores_calls_loops_and_views() {
        let context = crate::create_context().unwrap();
        let module = Module::parse(
            &context,
            r#"
            func.func @f(%m: memref<8xf32>, %i: index) {
              %x = memref.load %m[%i] : memref<8xf32>
              memref.store %x, %m[%i] : memref<8xf32>
              func.call @g(%m) : (memref<8xf32>) -> ()
              %c0 = arith.constant 0 : index
              scf.for %j = %c0 to %i step %i {
              }
              %s = memref.subview %m[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
              return
            }
            func.func private @g(memref<8xf32>)
            "#,
        )
        .unwrap();
        let ops = ops_of(&module);
        let memref = ops[0].operand(0).unwrap();

        let load = memory_effects(&ops[0]);
        let declared = load.declared.unwrap();
        assert_eq!(declared.len(), 1);
        assert_eq!(declared[0].kind, EffectKind::Read);
        assert_eq!(declared[0].value.unwrap().to_raw().ptr, memref.to_raw().ptr);
        assert!(declared[0].default_resource && !load.recursive);

        let store = memory_effects(&ops[1]).declared.unwrap();
        assert_eq!(store.len(), 1);
        assert_eq!(store[0].kind, EffectKind::Write);

        // A call has no interface: unknown effects.
        assert!(memory_effects(&ops[2]).declared.is_none());
        // arith.constant: no effects at all.
        assert!(memory_effects(&ops[3]).declared.unwrap().is_empty());
        // scf.for: recursive.
        assert!(memory_effects(&ops[4]).recursive);

        assert_eq!(
            view_source(&ops[5]).unwrap().to_raw().ptr,
            memref.to_raw().ptr
        );
        assert!(view_source(&ops[0]).is_none());
    }
}
