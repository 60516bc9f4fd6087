//! Whether a program may run long by its own design, so that `apipe-run`
//! running past the time limit is the program's doing and not a hang.
//!
//! The rule: a program is *small* when the work of its entry `@main` is
//! provably at most [`SMALL_WORK`] units; then running past the limit is
//! a hang (a crash). Otherwise it *may run long by design* (a huge or
//! dynamic trip count, a non-positive step, which is undefined for
//! `scf.for`, an `scf.while` or branch loop, recursion, huge buffers), and
//! running past a shorter limit is counted apart, not as a crash.
//!
//! Work units, an upper bound of what the program executes:
//! 1. every op costs 1;
//! 2. an op that takes a memref operand as a whole (calls, `memref.copy`,
//!    `linalg`, prints; not loads, stores, views or apipe ops) costs its
//!    static element count; a dynamic shape is unbounded;
//! 3. `apipe.copy` costs its `elements`;
//! 4. `scf.for` costs its static trip count times (1 + its body); no static
//!    trip count (dynamic bounds, step <= 0) is unbounded;
//! 5. `scf.while`, `cf` branches, `scf.parallel` and `scf.forall` are
//!    unbounded;
//! 6. a call costs its callee's work; recursion is unbounded;
//! 7. a kernel launch (`gpu.launch_func`, or `gpu.launch` with its body)
//!    costs its thread count (grid size times block size, constants) times
//!    (1 + the kernel's work); sizes that are not constants are unbounded.
//!    Calls in a `gpu.module` resolve to that module's functions.

use apipe_dialect::ops::Checked as _;
use apipe_dialect::{attributes, ops};
use apipe_passes::group_distance;
use melior::ir::{
    attribute::StringAttribute,
    operation::OperationLike,
    r#type::{MemRefType, ShapedTypeLike, TypeLike},
    BlockLike, OperationRef, RegionLike, Value, ValueLike,
};
use std::collections::HashMap;

/// The most work units a program may have for a time-out to be a hang.
pub const SMALL_WORK: u128 = 1_000_000;

/// What the program's text says about its run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// At most [`SMALL_WORK`] units (or nothing runs: no entry, or the
    /// input does not parse).
    Small,
    /// May run long by its own design.
    MayRunLong,
}

/// Estimates the work of `entry` in `text` (parsed in a fresh context).
pub fn estimate(text: &str, entry: &str) -> Work {
    let Ok(context) = apipe_dialect::create_context() else {
        return Work::MayRunLong;
    };
    context.attach_diagnostic_handler(|_| true);
    let Some(module) = crate::source::parse(&context, text, "input") else {
        return Work::Small;
    };
    let mut functions = HashMap::new();
    let body = module.body();
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        let Some(name) = symbol(&op) else {
            continue;
        };
        if ops::is(&op, "gpu.module") {
            // Its functions as `module::function`.
            for block in ops::blocks_of(&op) {
                let mut inner = block.first_operation();
                while let Some(function) = inner {
                    inner = function.next_in_block();
                    if let Some(f) = symbol(&function) {
                        functions.insert(format!("{name}::{f}"), function);
                    }
                }
            }
        } else {
            functions.insert(name, op);
        }
    }
    let Some(main) = functions.get(entry).copied() else {
        return Work::Small;
    };
    let mut estimator = Estimator {
        functions,
        memo: HashMap::new(),
        active: Vec::new(),
    };
    match estimator.function(&main, entry) {
        Some(work) if work <= SMALL_WORK => Work::Small,
        _ => Work::MayRunLong,
    }
}

fn symbol(op: &OperationRef) -> Option<String> {
    let attribute = op.attribute("sym_name").ok()?;
    Some(
        StringAttribute::try_from(attribute)
            .ok()?
            .value()
            .to_owned(),
    )
}

struct Estimator<'c, 'a> {
    functions: HashMap<String, OperationRef<'c, 'a>>,
    memo: HashMap<String, Option<u128>>,
    active: Vec<String>,
}

impl<'c, 'a> Estimator<'c, 'a> {
    fn function(&mut self, op: &OperationRef<'c, 'a>, name: &str) -> Option<u128> {
        if let Some(known) = self.memo.get(name) {
            return *known;
        }
        if self.active.iter().any(|a| a == name) {
            return None;
        }
        self.active.push(name.to_owned());
        let work = self.regions(op);
        self.active.pop();
        self.memo.insert(name.to_owned(), work);
        work
    }

    fn regions(&mut self, op: &OperationRef<'c, 'a>) -> Option<u128> {
        let mut total: u128 = 0;
        for region in op.regions() {
            let mut block = region.first_block();
            while let Some(b) = block {
                let mut next = b.first_operation();
                while let Some(inner) = next {
                    total = total.checked_add(self.op(&inner)?)?;
                    next = inner.next_in_block();
                }
                block = b.next_in_region();
            }
        }
        Some(total)
    }

    fn op(&mut self, op: &OperationRef<'c, 'a>) -> Option<u128> {
        let name = ops::name(op);
        match name {
            "scf.for" => {
                let trips = group_distance::static_trip_count(op)? as u128;
                trips.checked_mul(self.regions(op)?.checked_add(1)?)
            }
            "scf.while" | "scf.parallel" | "scf.forall" | "cf.br" | "cf.cond_br" | "cf.switch"
            | "func.call_indirect" => None,
            "func.call" => {
                let mut callee = group_distance::callee(op)?;
                // In a `gpu.module`, its own functions.
                if let Some(module) =
                    ops::ancestors(op).find_map(|p| ops::is(&p, "gpu.module").then(|| symbol(&p)))
                {
                    callee = format!("{}::{callee}", module?);
                }
                let operands = whole_memref_operands(op)?;
                let inner = match self.functions.get(&callee).copied() {
                    Some(function) => self.function(&function, &callee)?,
                    None => 0,
                };
                1u128.checked_add(operands)?.checked_add(inner)
            }
            "gpu.launch_func" => {
                let kernel = op.attribute("kernel").ok()?.to_string();
                let key = kernel.trim_start_matches('@').replacen("::@", "::", 1);
                let function = self.functions.get(&key).copied()?;
                let inner = self.function(&function, &key)?;
                threads(op)?
                    .checked_mul(inner.checked_add(1)?)?
                    .checked_add(1)
            }
            "gpu.launch" => threads(op)?
                .checked_mul(self.regions(op)?.checked_add(1)?)?
                .checked_add(1),
            _ => {
                let mut work: u128 = 1;
                if name == ops::COPY {
                    let elements = attributes::integer(op, "elements").unwrap_or(0);
                    work = work.checked_add(elements.unsigned_abs() as u128)?;
                } else if !name.starts_with("apipe.")
                    && !matches!(
                        name,
                        "memref.load"
                            | "memref.store"
                            | "memref.subview"
                            | "memref.cast"
                            | "memref.dealloc"
                            | "memref.dim"
                            | "memref.reinterpret_cast"
                            | "memref.extract_strided_metadata"
                            | "memref.expand_shape"
                            | "memref.collapse_shape"
                            | "memref.view"
                    )
                {
                    work = work.checked_add(whole_memref_operands(op)?)?;
                }
                work.checked_add(self.regions(op)?)
            }
        }
    }
}

/// The thread count of launch op `op` (`gpu.launch_func` or `gpu.launch`):
/// the product of its grid and block sizes, operands 0-5 after the async
/// dependencies; `None` unless each is an `arith.constant`.
fn threads(op: &OperationRef) -> Option<u128> {
    let segments = op.attribute("operandSegmentSizes").ok()?;
    let segments = melior::ir::attribute::DenseI32ArrayAttribute::try_from(segments).ok()?;
    let first = usize::try_from(segments.element(0).ok()?).ok()?;
    let mut total: u128 = 1;
    for index in first..first + 6 {
        let size = constant(op.operand_at(index)?)?;
        total = total.checked_mul(u128::try_from(size).ok()?)?;
    }
    Some(total)
}

/// The value of the `arith.constant` that defines `value`, if one does.
fn constant(value: Value) -> Option<i64> {
    // SAFETY: `value` is live; the owner of an op result is a live op.
    let owner = unsafe {
        if !mlir_sys::mlirValueIsAOpResult(value.to_raw()) {
            return None;
        }
        OperationRef::from_raw(mlir_sys::mlirOpResultGetOwner(value.to_raw()))
    };
    if !ops::is(&owner, "arith.constant") {
        return None;
    }
    let attribute = owner.attribute("value").ok()?;
    Some(
        melior::ir::attribute::IntegerAttribute::try_from(attribute)
            .ok()?
            .value(),
    )
}

/// The static element count of the memref operands of `op`; `None` if one
/// has a dynamic shape or is unranked.
fn whole_memref_operands(op: &OperationRef) -> Option<u128> {
    let mut total: u128 = 0;
    for index in 0..op.operand_count() {
        let mut value: Value = op.operand_at(index)?;
        if value.r#type().is_unranked_mem_ref() {
            // `memref.cast` to unranked, as prints take their argument.
            value = cast_source(value)?;
        }
        let ty = value.r#type();
        if !ty.is_mem_ref() {
            continue;
        }
        let memref = MemRefType::try_from(ty).ok()?;
        if !memref.has_rank() || !memref.has_static_shape() {
            return None;
        }
        let mut elements: u128 = 1;
        for dim in 0..memref.rank() {
            match memref.dim_size(dim).ok()? {
                melior::ir::r#type::DimSize::Static(size) => {
                    elements = elements.checked_mul(size as u128)?
                }
                melior::ir::r#type::DimSize::Dynamic => return None,
            }
        }
        total = total.checked_add(elements)?;
    }
    Some(total)
}

/// The operand of the `memref.cast` that defines `value`, if one does.
fn cast_source<'c, 'a>(value: Value<'c, 'a>) -> Option<Value<'c, 'a>> {
    // SAFETY: `value` is live; the owner of an op result is a live op.
    let owner = unsafe {
        if !mlir_sys::mlirValueIsAOpResult(value.to_raw()) {
            return None;
        }
        OperationRef::from_raw(mlir_sys::mlirOpResultGetOwner(value.to_raw()))
    };
    if !ops::is(&owner, "memref.cast") {
        return None;
    }
    let source = owner.operand_at(0)?;
    // SAFETY: the operand of a live op is live as long as the op.
    Some(unsafe { Value::from_raw(source.to_raw()) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(upper: &str, step: &str) -> String {
        format!(
            r#"func.func @main() {{
  %c0 = arith.constant 0 : index
  %ub = arith.constant {upper} : index
  %st = arith.constant {step} : index
  %buf = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %ub step %st {{
    %x = memref.load %buf[%c0] : memref<4xf32>
    memref.store %x, %buf[%c0] : memref<4xf32>
  }}
  return
}}"#
        )
    }

    #[test]
    fn loops_decide_the_estimate() {
        assert_eq!(estimate(&program("100", "1"), "main"), Work::Small);
        assert_eq!(
            estimate(&program("100000000", "1"), "main"),
            Work::MayRunLong
        );
        assert_eq!(estimate(&program("100", "0"), "main"), Work::MayRunLong);
        assert_eq!(estimate(&program("100", "-1"), "main"), Work::MayRunLong);
        assert_eq!(estimate(&program("100", "1"), "other"), Work::Small);
        assert_eq!(estimate("not mlir", "main"), Work::Small);
    }

    fn launch(trips: &str, threads: &str) -> String {
        format!(
            r#"module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    func.func @step(%buf: memref<4xf32>) {{
      %c0 = arith.constant 0 : index
      %x = memref.load %buf[%c0] : memref<4xf32>
      memref.store %x, %buf[%c0] : memref<4xf32>
      return
    }}
    gpu.func @spin(%buf: memref<4xf32>) kernel {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.constant {trips} : index
      scf.for %i = %c0 to %n step %c1 {{
        func.call @step(%buf) : (memref<4xf32>) -> ()
      }}
      gpu.return
    }}
  }}
  func.func @step() {{
    return
  }}
  func.func @main() {{
    %c1 = arith.constant 1 : index
    %t = arith.constant {threads} : index
    %buf = memref.alloc() : memref<4xf32>
    gpu.launch_func @kernels::@spin blocks in (%c1, %c1, %c1) threads in (%t, %c1, %c1) args(%buf : memref<4xf32>)
    return
  }}
}}"#
        )
    }

    #[test]
    fn kernels_count_per_thread() {
        assert_eq!(estimate(&launch("100", "32"), "main"), Work::Small);
        // A kernel loop of 2^53 iterations (calls resolve in the module:
        // the host's empty @step does not count).
        assert_eq!(
            estimate(&launch("9007199254740992", "1"), "main"),
            Work::MayRunLong
        );
        // 1000 iterations of 4 units on 1024 threads.
        assert_eq!(estimate(&launch("1000", "1024"), "main"), Work::MayRunLong);
        let dynamic = launch("100", "32").replace(
            "%t = arith.constant 32 : index",
            "%t = arith.addi %c1, %c1 : index",
        );
        assert!(dynamic.contains("arith.addi"));
        assert_eq!(estimate(&dynamic, "main"), Work::MayRunLong);
    }

    #[test]
    fn recursion_may_run_long() {
        let text = "func.func @main() {\n  func.call @main() : () -> ()\n  return\n}\n";
        assert_eq!(estimate(text, "main"), Work::MayRunLong);
    }
}
