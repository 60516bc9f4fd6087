//! SSA index values as [`Lin`] forms, the facts their defining ops give
//! (`max(a, b) >= a`, thread ids are nonnegative, ...), and the constraints
//! that hold at a program point because of the structured control flow
//! around it (loop bounds, `scf.if` conditions, `scf.index_switch` cases).
//!
//! A loop induction variable with a constant step becomes
//! `lb + step * τ_L` ([`Symbol::Iteration`]): every form that depends on the
//! iteration is then affine in `τ_L`, and "the same access `k` iterations
//! earlier" is the substitution `τ_L -> τ_L - k`.
//!
//! Folded ops: `arith.constant`, `addi`, `subi`, `muli` by a constant,
//! `remui` / `remsi` / `divui` / `divsi` / `floordivsi` / `ceildivsi` by a
//! positive constant, `andi` with `2^k - 1`, `shli` / `shrui` / `shrsi` by a
//! constant, `trunci`, `index_cast` / `index_castui` / `extsi` / `extui`,
//! `affine.apply`, and `arith.select` with a constant condition or as a slot
//! advance (`select(index + 1 == K, 0, index + 1)` is `(index + 1) mod K`
//! where `0 <= index < K`; see [`super::slot`]). Any other value is a
//! symbol of its own. A slot carried through iter_args and advanced so from
//! a constant in `[0, K)` is `(init + τ_L) mod K`.
//!
//! Wrapping. Integer ops wrap at their width (MLIR `arith`: two's
//! complement, no overflow flags assumed). The form of a `W`-bit integer
//! (`W < 64`) is congruent to its value modulo `2^W`: the ring operations
//! (`addi`, `subi`, `muli`, `shli`, `trunci`, a cast to a type no wider)
//! keep that; where the value itself matters (a cast to a wider type, a
//! division, a remainder, a right shift, and [`Forms::of`]) it is read
//! exactly, signed or unsigned as the op reads it:
//! `((x + 2^(W-1)) mod 2^W) - 2^(W-1)` or `x mod 2^W`. `xori` and `ori` of
//! such integers are symbols. The form of a 64-bit or `index` value is its
//! value: a sum or product with a coefficient or constant of `2^32` or more
//! in magnitude is a symbol of its own (it may wrap; below that, index
//! arithmetic is assumed not to overflow 64 bits), as is an integer wider
//! than 64 bits and the variable of an `scf.for unsigned` that may pass
//! `2^63` ([`Forms::induction_form`]).

use super::{
    affine::{Atom, Lin, Signedness, Symbol},
    constraints::{Constraint, System},
    slot,
};
use apipe_dialect::ops;
use apipe_dialect::ops::Checked as _;
use melior::ir::{
    attribute::AttributeLike as _, operation::OperationLike, BlockLike, BlockRef, OperationRef,
    RegionLike, Value, ValueLike,
};
use rustc_hash::FxHashMap;
use std::rc::Rc;

mod gpu;

/// Ops without operands that give the same value wherever they run in one
/// function (a kernel's thread, block and launch geometry; MLIR GPUOps.td,
/// NVVM special registers).
const LAUNCH_CONSTANT: &[&str] = &[
    "gpu.thread_id",
    "gpu.block_id",
    "gpu.block_dim",
    "gpu.grid_dim",
    "gpu.global_id",
    "gpu.lane_id",
    "gpu.subgroup_id",
    "gpu.num_subgroups",
    "gpu.subgroup_size",
];

/// The first op of `op`'s function (in walk order) with `op`'s name and
/// `dimension` attribute, when `op` is one of [`LAUNCH_CONSTANT`] (or an
/// NVVM special-register read): the op whose result stands for every such
/// op's.
fn first_of_its_kind<'c: 'a, 'a>(op: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let name = ops::name(op);
    if op.operand_count() != 0
        || op.result_count() != 1
        || !(LAUNCH_CONSTANT.contains(&name) || name.starts_with("nvvm.read.ptx.sreg."))
    {
        return None;
    }
    let dimension = op.attribute("dimension").ok();
    let function = ops::ancestors(op).find(ops::is_function)?;
    ops::nested_ops(&function).into_iter().find(|o| {
        ops::name(o) == name
            && o.operand_count() == 0
            && o.result_count() == 1
            && o.attribute("dimension").ok() == dimension
    })
}

/// The key of a value: its pointer.
pub fn value_key(value: Value) -> usize {
    value.to_raw().ptr as usize
}

/// The key of an op: its pointer.
pub fn op_key<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> usize {
    op.to_raw().ptr as usize
}

/// The op that defines `value`, if it is an op result.
pub use apipe_dialect::ops::defining_op;

/// The block and position of `value` if it is a block argument.
pub fn block_argument<'c, 'a>(value: Value<'c, 'a>) -> Option<(BlockRef<'c, 'a>, usize)> {
    // SAFETY: `value` is live; a block argument's owner is a live block.
    unsafe {
        if !mlir_sys::mlirValueIsABlockArgument(value.to_raw()) {
            return None;
        }
        Some((
            BlockRef::from_raw(mlir_sys::mlirBlockArgumentGetOwner(value.to_raw())),
            mlir_sys::mlirBlockArgumentGetArgNumber(value.to_raw()) as usize,
        ))
    }
}

/// The `scf.for` whose induction variable `value` is.
pub fn induction_loop<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let (block, 0) = block_argument(value)? else {
        return None;
    };
    let parent = block.parent_operation()?;
    (ops::is(&parent, "scf.for") && ops::is_entry_block(&block)).then_some(parent)
}

/// The dimension (0 for x, 1 for y, 2 for z) of `value` if it is a thread
/// id within the block: a `gpu.thread_id` result, or one of a `gpu.launch`
/// body's thread id arguments (3-5, MLIR GPUOps.td). Not `gpu.global_id`.
pub fn block_thread_id_dimension(value: Value) -> Option<usize> {
    if let Some(op) = defining_op(value) {
        return ops::is(&op, "gpu.thread_id")
            .then(|| gpu_dimension(&op))
            .flatten();
    }
    let (block, n) = block_argument(value)?;
    ((3..6).contains(&n)
        && block
            .parent_operation()
            .is_some_and(|p| ops::is(&p, "gpu.launch")))
    .then(|| n - 3)
}

/// True if `value` is a thread id within the block
/// ([`block_thread_id_dimension`]) along a dimension the kernel states to
/// be of size 1 (`known_block_size`, a constant `gpu.launch` size): 0 in
/// every thread (trial 90: a bound `tz * 8 + 8` in a launch of z size 1
/// was taken to differ between threads).
pub fn is_unit_thread_id(value: Value) -> bool {
    let Some(d) = block_thread_id_dimension(value) else {
        return false;
    };
    // An op in the kernel: the `gpu.thread_id` itself, or the first op of
    // the `gpu.launch` body whose argument `value` is.
    let inside = defining_op(value)
        .or_else(|| block_argument(value).and_then(|(block, _)| block.first_operation()));
    inside.is_some_and(|op| known_block_size(&op, d) == Some(1))
}

/// True if the value with key `k` (a [`Symbol::Value`] key of a live value)
/// is a thread id: a `gpu.thread_id` or `gpu.global_id` result, or one of
/// a `gpu.launch` body's thread id arguments (3-5, MLIR GPUOps.td).
pub fn is_thread_id(k: usize) -> bool {
    // SAFETY: keys of symbols come from live values.
    let value = unsafe { value_of(k) };
    if let Some(op) = defining_op(value) {
        return matches!(ops::name(&op), "gpu.thread_id" | "gpu.global_id");
    }
    block_argument(value).is_some_and(|(block, n)| {
        (3..6).contains(&n)
            && block
                .parent_operation()
                .is_some_and(|p| ops::is(&p, "gpu.launch"))
    })
}

/// The value whose key ([`value_key`]) is `key`.
///
/// # Safety
/// `key` must come from a value of the IR under analysis that is still
/// live (every [`Symbol::Value`] of a [`Forms`] form is such a key while the
/// IR is unchanged).
pub unsafe fn value_of<'c, 'a>(key: usize) -> Value<'c, 'a> {
    // SAFETY: guaranteed by the caller.
    unsafe {
        Value::from_raw(mlir_sys::MlirValue {
            ptr: key as *const std::ffi::c_void,
        })
    }
}

/// True if the loop with key `l` (an op key, as in [`Symbol::Iteration`])
/// is nested inside `op`.
pub fn loop_inside(l: usize, op: &OperationRef) -> bool {
    // SAFETY: loop keys come from live ops of the IR under analysis.
    let mut current = unsafe { OperationRef::from_raw(mlir_sys::MlirOperation { ptr: l as _ }) };
    while let Some(parent) = current.parent_operation() {
        if parent == *op {
            return true;
        }
        current = parent;
    }
    false
}

/// The most cases of an `scf.index_switch` whose `default` region gets
/// `x != case` for each case (each a disjunction the solver splits).
const MOST_DEFAULT_CASES: usize = 4;

/// True if the value `key` ([`value_key`]) is defined inside `op` (by an
/// op nested in it, or as an argument of one of its blocks).
pub fn defined_inside(key: usize, op: &OperationRef) -> bool {
    // SAFETY: symbol keys are made from live values of the IR under
    // analysis.
    let value = unsafe { value_of(key) };
    let owner = match defining_op(value) {
        Some(def) => Some(def),
        None => block_argument(value).and_then(|(b, _)| b.parent_operation()),
    };
    let Some(mut owner) = owner else {
        return false;
    };
    // The op's own block arguments (a loop's iv and iter_args) are inside.
    if owner == *op {
        return block_argument(value).is_some();
    }
    while let Some(parent) = owner.parent_operation() {
        if parent == *op {
            return true;
        }
        owner = parent;
    }
    false
}

/// The size of the `gpu.block_dim` op `op` where the kernel states it
/// (`known_block_size`, a `gpu.launch` with constant sizes).
pub fn block_dim_size(op: &OperationRef) -> Option<i64> {
    gpu::block_dim(op)
}

/// The block size in dimension `d` (0 for x, 1 for y, 2 for z) that the
/// function or `gpu.launch` around `op` states, if any.
pub fn known_block_size(op: &OperationRef, d: usize) -> Option<i64> {
    gpu::known_block_size(op, d)
}

/// The dimension (0 for x, 1 for y, 2 for z) of a `gpu.thread_id`,
/// `gpu.block_dim`, ... op.
pub fn gpu_dimension(op: &OperationRef) -> Option<usize> {
    gpu::dimension(op)
}

/// The integer value of an `IntegerAttr`.
fn integer_attribute(attribute: melior::ir::Attribute) -> Option<i64> {
    // SAFETY: a live attribute, checked to be an integer first.
    unsafe {
        mlir_sys::mlirAttributeIsAInteger(attribute.to_raw())
            .then(|| mlir_sys::mlirIntegerAttrGetValueInt(attribute.to_raw()))
    }
}

/// The elements of a dense i64 array attribute named `name` on `op`.
pub fn dense_i64<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>, name: &str) -> Option<Vec<i64>> {
    let attribute = op.attribute(name).ok()?;
    // SAFETY: a live attribute; checked to be a dense i64 array first.
    unsafe {
        if !mlir_sys::mlirAttributeIsADenseI64Array(attribute.to_raw()) {
            return None;
        }
        let count = mlir_sys::mlirDenseArrayGetNumElements(attribute.to_raw());
        Some(
            (0..count)
                .map(|i| mlir_sys::mlirDenseI64ArrayGetElement(attribute.to_raw(), i))
                .collect(),
        )
    }
}

/// The elements of a dense i32 array attribute named `name` on `op`.
pub fn dense_i32<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>, name: &str) -> Option<Vec<i32>> {
    let attribute = op.attribute(name).ok()?;
    // SAFETY: a live attribute; checked to be a dense i32 array first.
    unsafe {
        if !mlir_sys::mlirAttributeIsADenseI32Array(attribute.to_raw()) {
            return None;
        }
        let count = mlir_sys::mlirDenseArrayGetNumElements(attribute.to_raw());
        Some(
            (0..count)
                .map(|i| mlir_sys::mlirDenseI32ArrayGetElement(attribute.to_raw(), i))
                .collect(),
        )
    }
}

/// The constant integer value of `value` (an `arith.constant`).
pub fn constant(value: Value) -> Option<i64> {
    ops::constant_int(value)
}

/// The step of the `scf.for` `l` when it is a known positive constant: an
/// `arith.constant`, or a `gpu.block_dim` / `gpu.grid_dim` whose size the
/// kernel states (`known_block_size` / `known_grid_size`, the launch's
/// constant sizes): a block-stride loop `for i = tid; i < n; i +=
/// blockDim.x` is then `tid + B * τ_L`.
pub fn loop_step(l: &OperationRef) -> Option<i64> {
    let step = l.operand_at(2)?;
    constant(step)
        .or_else(|| {
            defining_op(step).and_then(|op| match ops::name(&op) {
                "gpu.block_dim" => gpu::block_dim(&op),
                "gpu.grid_dim" => gpu::grid_dim(&op),
                _ => None,
            })
        })
        .or_else(|| gpu::launch_size_argument(step))
        .filter(|s| *s > 0)
}

/// How many iterations an `scf.for` runs, as far as it is known.
#[derive(Clone, Debug)]
pub struct Trips {
    /// `T_L` on the paths where the loop runs at least once: a constant, or
    /// `ub - lb` (step 1), or [`Symbol::Trips`].
    pub count: Lin,
    /// What holds on those paths (`T_L >= 1`, and its definition when it is
    /// a symbol).
    pub when_run: Vec<Constraint>,
    /// What holds on the paths where it does not run (`ub <= lb`), if
    /// expressible.
    pub when_skipped: Option<Vec<Constraint>>,
}

/// Forms of SSA values, with a cache (one per analysis: forms hold value
/// pointers, valid while the IR is unchanged).
#[derive(Default)]
pub struct Forms {
    cache: FxHashMap<usize, Lin>,
    /// Keys cached while a recurrence is probed (see
    /// [`Forms::recurrence_form`]), dropped after the probe: they may hold
    /// the probed iter_arg as a plain symbol.
    probed: Vec<usize>,
    /// Nesting of recurrence probes.
    probing: usize,
    /// The iter_args (value keys) whose recurrence is being probed, inner
    /// last.
    probe_stack: Vec<usize>,
    /// What a probe assumed to fold a slot advance ([`Forms::select`]):
    /// `(key, K)` for "the probed iter_arg `key` lies in `[0, K)` in every
    /// iteration"; the probe of `key` proves it by induction or fails.
    assumed: Vec<(usize, i64)>,
    facts: FxHashMap<Symbol, Vec<Constraint>>,
    trips: FxHashMap<usize, Trips>,
    /// Nesting of [`Forms::condition`] through `andi` / `ori` / `xori`.
    condition_depth: usize,
    /// Summaries of the functions that calls reach, computed once per
    /// analysis (and lent to the [`Forms`] of each callee analysed).
    pub(crate) calls: CallSummaries,
}

/// What the analysis knows of the functions calls reach, by function (op
/// key); `None` while a summary is being computed (a recursive call) or
/// where it is unknown. Trial 38: following each call anew took time
/// exponential in the depth of a chain of helpers.
#[derive(Default)]
pub(crate) struct CallSummaries {
    /// What each function result returns, by `(function, result number,
    /// shape of the access)` ([`super::region::returned_by`]).
    #[allow(clippy::type_complexity)]
    pub returns:
        FxHashMap<(usize, usize, Option<Vec<Option<i64>>>), Option<Rc<[super::region::Returned]>>>,
    /// What each function accesses ([`super::effects::function_accesses`]).
    pub accesses: FxHashMap<usize, Option<Rc<super::effects::FunctionAccesses>>>,
    /// What the functions a recursive call may reach touch
    /// ([`super::effects::Reach`]).
    pub reach: FxHashMap<usize, Rc<super::effects::Reach>>,
}

/// How deep the folding of one value goes.
const DEPTH_LIMIT: usize = 32;

impl Forms {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// The form of `value` (an index or integer).
    pub fn of(&mut self, value: Value) -> Lin {
        let form = self.of_at(value, 0);
        self.exact(value, form, true)
    }

    /// The value of `value`, whose form is `form` (congruent to it modulo
    /// `2^W` for a `W`-bit integer below 64 bits; see the module doc), read
    /// as a signed (`signed`) or unsigned `W`-bit integer: `form` itself
    /// for `index` and 64-bit integers; a symbol of its own for a 62- or
    /// 63-bit integer (`2^W` is past the forms' range).
    fn exact(&mut self, value: Value, form: Lin, signed: bool) -> Lin {
        match integer_width(value.r#type()) {
            Some(bits) if bits < 64 => two_complement(form, bits, signed)
                .unwrap_or_else(|| Lin::symbol(Symbol::Value(value_key(value)))),
            _ => form,
        }
    }

    fn of_at(&mut self, value: Value, depth: usize) -> Lin {
        let key = value_key(value);
        if let Some(form) = self.cache.get(&key) {
            return form.clone();
        }
        let form = self
            .fold(value, depth)
            .unwrap_or_else(|| Lin::symbol(Symbol::Value(key)));
        self.cache.insert(key, form.clone());
        if self.probing > 0 {
            self.probed.push(key);
        }
        form
    }

    /// The form of an iter_arg `x` of an `scf.for` with a constant positive
    /// step whose yield is an affine recurrence in it: `x_{τ+1} = x_τ + c`
    /// gives `init + c * τ_L`; `x_{τ+1} = (x_τ + c) mod V` (`c >= 0`) with a
    /// constant init in `[0, V)` gives `(init + c * τ_L) mod V` (a rotating
    /// version index); `x_{τ+1} = k - x_τ` (a toggle, `1 - cur`) with a
    /// constant init `i` gives `i + (k - 2i) * (τ_L mod 2)` (also `xori x,
    /// 1` from 0 or 1, [`Self::toggle`]). Any other iter_arg is a symbol of
    /// its own. The yield
    /// is folded with `x` as a plain symbol; what that probe cached is
    /// dropped.
    ///
    /// A slot advanced by `select(x + 1 == K, 0, x + 1)` ([`Self::select`])
    /// is `(x + 1) mod K` only where `0 <= x < K`: the probe assumes it, and
    /// the induction proves it when the recurrence is `(x + c) mod V` with
    /// a constant init in `[0, V)` and `V <= K` (then every `x` lies in
    /// `[0, V)`); otherwise the iter_arg stays a symbol.
    ///
    /// An `scf.while` is the same with its `before` arguments as the
    /// iter_args (init: the while's operand, next: the `after` region's
    /// yield) and `τ_W` its iterations, numbered from 0 by the back edges
    /// taken ([`Self::while_after_argument`] gives the `after` arguments).
    fn recurrence_form(&mut self, value: Value, depth: usize) -> Option<Lin> {
        let (block, n) = block_argument(value)?;
        let l = block.parent_operation()?;
        if !ops::is_entry_block(&block) {
            return None;
        }
        let (init, yielded) = if ops::is(&l, "scf.while") {
            if block.parent_region() != l.region_at(0) {
                return None;
            }
            let after = l.region_at(1)?.first_block()?;
            (l.operand_at(n)?, after.terminator()?.operand_at(n)?)
        } else {
            if n == 0 || !ops::is(&l, "scf.for") {
                return None;
            }
            loop_step(&l)?;
            (
                l.operand_at(3 + n - 1)?,
                block.terminator()?.operand_at(n - 1)?,
            )
        };
        let key = value_key(value);
        let me = Lin::symbol(Symbol::Value(key));
        // Probe: the yield in terms of `x` itself.
        let start = self.probed.len();
        self.probing += 1;
        self.probe_stack.push(key);
        self.cache.insert(key, me.clone());
        self.probed.push(key);
        let next = self.of_at(yielded, depth + 1);
        self.probing -= 1;
        self.probe_stack.pop();
        for k in self.probed.drain(start..).collect::<Vec<_>>() {
            self.cache.remove(&k);
        }
        // The slot ranges this probe assumed (each `x < K`).
        let mut assumed = Vec::new();
        self.assumed.retain(|(k, slots)| {
            if *k == key {
                assumed.push(*slots);
            }
            *k != key
        });
        let tau = Lin::symbol(Symbol::Iteration(op_key(&l)));
        if !next.mentions(Symbol::Value(key)) {
            return assumed
                .is_empty()
                .then(|| self.shifted_form(&l, next, init, depth))
                .flatten();
        }
        if let Some(c) = next.plus(&me, -1).and_then(|d| d.as_constant()) {
            if !assumed.is_empty() {
                return None;
            }
            let init = self.of_at(init, depth + 1);
            let narrow = integer_width(value.r#type()).is_some_and(|bits| bits < 64);
            return no_overflow(narrow, init.plus(&tau, c)?);
        }
        // `k - x`: a toggle between two slots (`1 - cur`). From a constant
        // init `i`, `x` is `i` in even iterations and `k - i` in odd ones:
        // `i + (k - 2i) * (τ_L mod 2)`.
        if let Some(k) = next.plus(&me, 1).and_then(|d| d.as_constant()) {
            let i = constant(init)?;
            // An `x < K` the probe assumed (`xori x, 1`) holds by induction
            // when both values lie in `[0, K)`.
            let values = [i, k.checked_sub(i)?];
            if !assumed
                .iter()
                .all(|slots| values.iter().all(|v| (0..*slots).contains(v)))
            {
                return None;
            }
            let parity = Lin::modulo(tau, 2, Signedness::Euclidean);
            return Lin::constant(i).plus(&parity, k.checked_sub(i.checked_mul(2)?)?);
        }
        // `(x + c) mod V`: one remainder atom of `x + c`.
        let mut terms = next.terms();
        if let (Some((Atom::Mod(inner, v, _), 1)), None, 0) =
            (terms.next(), terms.next(), next.constant_term())
        {
            let c = inner.plus(&me, -1).and_then(|d| d.as_constant())?;
            let init = constant(init).filter(|i| (0..*v).contains(i))?;
            if c < 0 || assumed.iter().any(|slots| slots < v) {
                return None;
            }
            let x = Lin::constant(init).plus(&tau, c)?;
            return Some(Lin::modulo(x, *v, Signedness::Euclidean));
        }
        None
    }

    /// A result of the `scf.for` `l` whose iter_arg has a recurrence form
    /// ([`Self::recurrence_form`]) and whose trip count `T` is a constant,
    /// or a form (`ub - lb`, step 1) that is nonnegative where `l` runs:
    /// that form at `τ_L = T` (each recurrence form holds for `τ_L` in
    /// `[0, T]`, `T` being the value after the last iteration, or the init
    /// when the loop does not run: `T = 0`). A count that may be negative
    /// (the loop does not run, and the result is the init) is not followed.
    fn loop_result(&mut self, value: Value, l: &OperationRef, depth: usize) -> Option<Lin> {
        // SAFETY: `value` is a live result of `l`.
        let n = unsafe { mlir_sys::mlirOpResultGetResultNumber(value.to_raw()) } as usize;
        let arg = apipe_dialect::ops::argument_at(&l.region_at(0)?.first_block()?, n + 1)?;
        let key = value_key(arg.into());
        let form = self.of_at(arg.into(), depth + 1);
        if form.mentions(Symbol::Value(key)) {
            return None;
        }
        let count = self.trips(l).count;
        let trips = match count.as_constant() {
            Some(t) => Lin::constant(t.max(0)),
            None if !count.mentions(Symbol::Trips(op_key(l))) && self.nonnegative_at(&count, l) => {
                count
            }
            None => return None,
        };
        form.replace(Symbol::Iteration(op_key(l)), &trips)
    }

    /// A **shift** recurrence (a window of slots or offsets passed along the
    /// iter_args, as upstream MLIR's pipeliner carries the versions of the
    /// tiles in flight): the yield `next = g(τ_L)` does not depend on the
    /// iter_arg itself, so in iteration `τ_L >= 1` the iter_arg is
    /// `g(τ_L - 1)`, and in iteration 0 it is the init. The form
    /// `g(τ_L - 1)` holds in every iteration when it equals the init at
    /// `τ_L = 0` and:
    /// - `g` names nothing that changes from one iteration of `l` to the
    ///   next but `τ_L` (no value defined in `l`, no iteration or trip count
    ///   of a loop in `l`), so that shifting `τ_L` shifts `g` exactly;
    /// - every remainder or quotient in `g(τ_L - 1)` that is not Euclidean
    ///   has a nonnegative dividend (at `τ_L = 0` it is taken one iteration
    ///   before the loop, where `g` was never evaluated).
    fn shifted_form(
        &mut self,
        l: &OperationRef,
        next: Lin,
        init: Value,
        depth: usize,
    ) -> Option<Lin> {
        let here = op_key(l);
        let mut enclosing = vec![here];
        let mut parent = l.parent_operation();
        while let Some(p) = parent {
            enclosing.push(op_key(&p));
            parent = p.parent_operation();
        }
        let mut symbols = Vec::new();
        next.symbols(&mut symbols);
        let invariant = symbols.iter().all(|s| match s {
            Symbol::Value(k) | Symbol::Stale(k) | Symbol::OtherThread(k) => !defined_inside(*k, l),
            Symbol::Iteration(o) | Symbol::Trips(o) => enclosing.contains(o),
            Symbol::Fresh(_) | Symbol::Counter(_) => false,
        });
        if !invariant {
            return None;
        }
        let tau = Symbol::Iteration(here);
        let shifted = next.replace(tau, &Lin::symbol(tau).offset(-1)?)?;
        let mut dividends = Vec::new();
        collect_dividends(&shifted, &mut dividends);
        if !dividends.iter().all(|x| self.nonnegative(x)) {
            return None;
        }
        let first = shifted.replace(tau, &Lin::constant(0))?;
        let init = self.of_at(init, depth + 1);
        (first == init).then_some(shifted)
    }

    /// The form of argument `m` of an `scf.while`'s `after` region: the
    /// value `scf.condition` passes to it (operand `m + 1`) in the same
    /// iteration.
    fn while_after_argument(&mut self, value: Value, depth: usize) -> Option<Lin> {
        let (block, m) = block_argument(value)?;
        let w = block.parent_operation()?;
        if !ops::is(&w, "scf.while") || block.parent_region() != w.region_at(1) {
            return None;
        }
        let condition = w.region_at(0)?.first_block()?.terminator()?;
        Some(self.of_at(condition.operand_at(m + 1)?, depth + 1))
    }

    /// The form of an `scf.for` induction variable: `lb + step * τ_L` for a
    /// positive constant step.
    ///
    /// An unsigned loop (`scf.for unsigned`) whose bounds are not both
    /// nonnegative (as `index`) where it runs may take its variable past
    /// `2^63`, where it is negative as an `index`: its variable is a symbol
    /// of its own (trial 36: it was read as `lb + step * τ_L`, past `2^63`,
    /// and a store it indexed was taken to miss what a copy read).
    fn induction_form(&mut self, value: Value, depth: usize) -> Option<Lin> {
        let l = induction_loop(value)?;
        let step = loop_step(&l)?;
        let lower = self.of_at(l.operand_at(0)?, depth + 1);
        // (A narrower variable's form is a residue: past `2^(W-1)` too.)
        let narrow = integer_width(value.r#type()).is_some_and(|bits| bits < 64);
        if crate::trip_count::is_unsigned(&l) && !narrow {
            let upper = self.of_at(l.operand_at(1)?, depth + 1);
            if !(self.nonnegative_at(&lower, &l) && self.nonnegative_at(&upper, &l)) {
                return None;
            }
        }
        lower.plus(&Lin::symbol(Symbol::Iteration(op_key(&l))), step)
    }

    fn fold(&mut self, value: Value, depth: usize) -> Option<Lin> {
        if depth > DEPTH_LIMIT {
            return None;
        }
        // An integer wider than 64 bits is a symbol of its own: its
        // arithmetic is past the forms' range (trial 36: an `i128` of a
        // negative index, zero-extended, was read as the index itself).
        if width(value.r#type()).is_some_and(|bits| bits > 64) {
            return None;
        }
        if let Some(c) = constant(value) {
            return Some(Lin::constant(c));
        }
        let Some(op) = defining_op(value) else {
            return self
                .induction_form(value, depth)
                .or_else(|| self.recurrence_form(value, depth))
                .or_else(|| self.while_after_argument(value, depth))
                .or_else(|| gpu::launch_size_argument(value).map(Lin::constant));
        };
        let name = ops::name(&op);
        // Every `gpu.thread_id y` of a function is one value (so are the
        // other ids and sizes of the launch): the form of the first, so
        // that a second one is the same thread's id (trial 48 F1: an unused
        // earlier `gpu.thread_id y` made `buf[ty * bdx + tx]` meet another
        // thread's element).
        if let Some(first) = first_of_its_kind(&op).filter(|first| *first != op) {
            return first
                .result(0)
                .ok()
                .map(|r| self.of_at(r.into(), depth + 1));
        }
        let operand_count = op.operand_count();
        let operand = |this: &mut Self, i: usize| -> Option<Lin> {
            (i < operand_count).then(|| this.of_at(op.operand(i).unwrap(), depth + 1))
        };
        // The exact value of operand `i` of an op whose result depends on
        // more than its operands' residues modulo `2^W` (a division, a
        // remainder, a right shift): an operand of a `W`-bit type below 64
        // bits read as signed or unsigned.
        let exact_operand = |this: &mut Self, i: usize, signed: bool| -> Option<Lin> {
            let form = operand(this, i)?;
            Some(this.exact(op.operand(i).ok()?, form, signed))
        };
        let narrow = integer_width(value.r#type()).is_some_and(|bits| bits < 64);
        let positive = |lin: &Lin| lin.as_constant().filter(|c| *c > 0);
        match name {
            // Ring operations: a `W`-bit result's form is congruent to it
            // modulo `2^W` (they commute with the residue); a 64-bit or
            // `index` result's form is its value where it stays below
            // `2^32` in every coefficient (see [`no_overflow`]).
            "arith.addi" => no_overflow(narrow, operand(self, 0)?.plus(&operand(self, 1)?, 1)?),
            "arith.subi" => no_overflow(narrow, operand(self, 0)?.plus(&operand(self, 1)?, -1)?),
            "arith.muli" => {
                let (a, b) = (operand(self, 0)?, operand(self, 1)?);
                let product = match (a.as_constant(), b.as_constant()) {
                    (_, Some(c)) => a.scaled(c),
                    (Some(c), _) => b.scaled(c),
                    _ => None,
                }?;
                no_overflow(narrow, product)
            }
            // The low bits of a wider integer; of one wider than 64 bits
            // into 64 bits, not a value the forms can give.
            "arith.trunci" if narrow => operand(self, 0),
            "arith.remui" | "arith.remsi" => {
                let signed = name == "arith.remsi";
                let (a, b) = (
                    exact_operand(self, 0, signed)?,
                    exact_operand(self, 1, signed)?,
                );
                let sign = if name == "arith.remui" {
                    Signedness::Unsigned
                } else {
                    Signedness::Signed
                };
                Some(Lin::modulo(a, positive(&b)?, sign))
            }
            "arith.divui" | "arith.divsi" | "arith.floordivsi" => {
                let signed = name != "arith.divui";
                let (a, b) = (
                    exact_operand(self, 0, signed)?,
                    exact_operand(self, 1, signed)?,
                );
                let sign = match name {
                    "arith.divui" => Signedness::Unsigned,
                    "arith.divsi" => Signedness::Signed,
                    _ => Signedness::Euclidean,
                };
                Some(Lin::div(a, positive(&b)?, sign))
            }
            "arith.ceildivsi" => {
                // ceil(a / b) = -floor(-a / b).
                let (a, b) = (exact_operand(self, 0, true)?, exact_operand(self, 1, true)?);
                Lin::div(a.scaled(-1)?, positive(&b)?, Signedness::Euclidean).scaled(-1)
            }
            "arith.andi" => {
                let (a, b) = (operand(self, 0)?, operand(self, 1)?);
                let (x, mask) = match (a.as_constant(), b.as_constant()) {
                    (_, Some(m)) => (a, m),
                    (Some(m), _) => (b, m),
                    _ => return None,
                };
                // x & (2^k - 1) is the Euclidean x mod 2^k (two's complement),
                // for k <= 62 (trial 38: 2^63 - 1 overflowed `mask + 1`, and
                // a masked index was taken to meet nothing).
                ((0..i64::MAX).contains(&mask) && (mask as u64 + 1).is_power_of_two())
                    .then(|| Lin::modulo(x, mask + 1, Signedness::Euclidean))
            }
            "arith.xori" if !narrow => self.toggle(&op, depth),
            "arith.shli" | "arith.shrui" | "arith.shrsi" => {
                let signed = name == "arith.shrsi";
                let a = if name == "arith.shli" {
                    operand(self, 0)?
                } else {
                    exact_operand(self, 0, signed)?
                };
                let b = operand(self, 1)?;
                let shift = b.as_constant().filter(|s| (0..62).contains(s))?;
                match name {
                    "arith.shli" => no_overflow(narrow, a.scaled(1 << shift)?),
                    "arith.shrui" => Some(Lin::div(a, 1 << shift, Signedness::Unsigned)),
                    _ => Some(Lin::div(a, 1 << shift, Signedness::Euclidean)),
                }
            }
            "arith.index_cast" | "arith.extsi" | "arith.index_castui" | "arith.extui" => {
                // A cast to a wider type extends the operand's value, read
                // as signed (`index_cast`, `extsi`) or unsigned; a cast to
                // a type no wider keeps its low bits, whose form is the
                // operand's (trial 35: an `i32` sum that wraps, cast to
                // `index`, was taken as the sum itself, and the pipeliner
                // missed a dependence through it).
                let widths = (width(op.operand(0).ok()?.r#type())?, width(value.r#type())?);
                if widths.0 < widths.1 {
                    let signed = matches!(name, "arith.index_cast" | "arith.extsi");
                    exact_operand(self, 0, signed)
                } else if widths.0 > 64 && !narrow {
                    // The low 64 bits of a wider integer (a symbol).
                    None
                } else {
                    operand(self, 0)
                }
            }
            "arith.ori" if !narrow => self.disjoint_or(&op, depth),
            "affine.apply" => self.affine_apply(&op, depth),
            "arith.select" => self.select(&op, depth),
            "scf.if" => self.if_result(value, &op, depth),
            "scf.for" => self.loop_result(value, &op, depth),
            "gpu.block_dim" => gpu::block_dim(&op).map(Lin::constant),
            "gpu.grid_dim" => gpu::grid_dim(&op).map(Lin::constant),
            _ => None,
        }
    }

    /// `arith.select`: with a constant condition, the arm it picks; as a
    /// slot advance (`select(inc == K, 0, inc)` or `select(index == K - 1,
    /// 0, inc)` with `inc = index + 1`, or the `ne` forms with the arms
    /// swapped; recognised by [`slot::next_index`]), `inc mod K`, provided
    /// `0 <= index < K`: proved from the facts of its symbols, or, for the
    /// iter_arg a recurrence probe is following, assumed and left to the
    /// probe's induction ([`Self::recurrence_form`]). Anything else: `None`
    /// (a symbol).
    fn select(&mut self, op: &OperationRef, depth: usize) -> Option<Lin> {
        let arms = [op.operand_at(0)?, op.operand_at(1)?, op.operand_at(2)?];
        self.choose(arms, Some(op), depth)
    }

    /// Result `r` of an `scf.if %c` whose branches yield `a` and `b`: the
    /// value of `select(%c, a, b)` ([`Self::choose`]): a slot advanced as
    /// `if (++i == K) i = 0` written with `scf.if`.
    fn if_result(&mut self, value: Value, op: &OperationRef, depth: usize) -> Option<Lin> {
        // SAFETY: `value` is a live result of `op`.
        let r = unsafe { mlir_sys::mlirOpResultGetResultNumber(value.to_raw()) } as usize;
        let arms = [
            op.operand_at(0)?,
            region_yield(op, 0, r)?,
            region_yield(op, 1, r)?,
        ];
        self.choose(arms, None, depth)
    }

    /// [`Self::select`] of `[condition, then, otherwise]` (`select_op`: the
    /// `arith.select` itself, for [`slot::next_index`]).
    fn choose(
        &mut self,
        [condition, then, otherwise]: [Value; 3],
        select_op: Option<&OperationRef>,
        depth: usize,
    ) -> Option<Lin> {
        if let Some(c) = constant(condition) {
            return Some(self.of_at(if c != 0 { then } else { otherwise }, depth + 1));
        }
        if let Some(form) = self.indicator_select([condition, then, otherwise], depth) {
            return Some(form);
        }
        let mut constant_of = |v: Value| self.of_at(v, depth + 1).as_constant();
        let (inc, slots) = match select_op.and_then(|op| slot::next_index(op, &mut constant_of)) {
            Some(next) => {
                let inc = self.of_at(next.inc, depth + 1);
                let compared = self.of_at(next.compared, depth + 1);
                let slots =
                    next.slots(compared == inc, compared.offset(1).as_ref() == Some(&inc))?;
                (inc, slots)
            }
            None => self.ordered_wrap([condition, then, otherwise], depth)?,
        };
        let index = inc.offset(-1)?;
        let probed = match index.as_symbol() {
            Some(Symbol::Value(key)) if self.probe_stack.contains(&key) => Some(key),
            _ => None,
        };
        if let Some(key) = probed {
            self.assumed.push((key, slots));
        } else {
            let last = Lin::constant(slots - 1).plus(&index, -1)?;
            if !(self.nonnegative(&index) && self.nonnegative(&last)) {
                return None;
            }
        }
        Some(wrapped(inc, slots))
    }

    /// A slot advance whose wrap is an order comparison, as CUTLASS-style
    /// code also writes it: `select(inc < K, inc, 0)`, `select(inc >= K,
    /// 0, inc)`, or the same comparing `index = inc - 1` (`index < K - 1`),
    /// signed or unsigned, the constant on either side. Recognised by
    /// meaning: for `index` in `[0, K)` (what [`Self::select`] then
    /// proves or assumes) the select must give 0 exactly where `inc = K`,
    /// which is checked for every `inc` in `[1, K]` against the candidates
    /// `K` the comparison's constant allows. Returns `(inc, K)`.
    fn ordered_wrap(
        &mut self,
        [condition, then, otherwise]: [Value; 3],
        depth: usize,
    ) -> Option<(Lin, i64)> {
        let arms = [then, otherwise];
        let forms = [
            self.of_at(arms[0], depth + 1),
            self.of_at(arms[1], depth + 1),
        ];
        // `zero_on`: the condition's value for which the select gives 0.
        let (inc, zero_on) = match (forms[0].as_constant(), forms[1].as_constant()) {
            (_, Some(0)) => (forms[0].clone(), false),
            (Some(0), _) => (forms[1].clone(), true),
            _ => return None,
        };
        let (predicate, a, b) = compare_of(condition)?;
        let (a, b) = (self.of_at(a, depth + 1), self.of_at(b, depth + 1));
        // `compared + shift = inc`, compared with the constant `c`.
        let (c, compared, left) = match (a.as_constant(), b.as_constant()) {
            (_, Some(c)) => (c, a, true),
            (Some(c), _) => (c, b, false),
            _ => return None,
        };
        let shift = if compared == inc {
            0
        } else if compared.offset(1).as_ref() == Some(&inc) {
            1
        } else {
            return None;
        };
        // arith::CmpIPredicate on small nonnegative values (signed and
        // unsigned agree): eq 0, ne 1, slt/ult 2/6, sle/ule 3/7, sgt/ugt
        // 4/8, sge/uge 5/9.
        let holds = |x: i64, y: i64| match predicate {
            0 => Some(x == y),
            1 => Some(x != y),
            2 | 6 => Some(x < y),
            3 | 7 => Some(x <= y),
            4 | 8 => Some(x > y),
            5 | 9 => Some(x >= y),
            _ => None,
        };
        // (The comparison's constant may be any i64: the candidates are
        // taken only within `[1, 4096]`.)
        for slots in (-1..=2).filter_map(|d| c.checked_add(d)) {
            if !(1..=4096).contains(&slots) {
                continue;
            }
            let fits = (1..=slots).all(|v| {
                let x = v - shift;
                let outcome = if left { holds(x, c) } else { holds(c, x) };
                outcome.is_some_and(|h| (h == zero_on) == (v == slots))
            });
            if fits {
                return Some((inc, slots));
            }
        }
        None
    }

    /// `select(%c, a, b)` of constants, `%c` an `arith.cmpi eq/ne` of a
    /// value `x` that is 0 or 1 (by the facts of its symbols) with the
    /// constant 0 or 1: `%c` is `x` or `1 - x`, so the select is
    /// `b + (a - b) * %c` (`select(n mod 2 != 0, 1, 0)` is `n mod 2`).
    fn indicator_select(
        &mut self,
        [condition, then, otherwise]: [Value; 3],
        depth: usize,
    ) -> Option<Lin> {
        let a = self.of_at(then, depth + 1).as_constant()?;
        let b = self.of_at(otherwise, depth + 1).as_constant()?;
        let (predicate, l, r) = compare_of(condition)?;
        let (l, r) = (self.of_at(l, depth + 1), self.of_at(r, depth + 1));
        let (x, k) = match (l.as_constant(), r.as_constant()) {
            (_, Some(k)) => (l, k),
            (Some(k), _) => (r, k),
            _ => return None,
        };
        let flipped = Lin::constant(1).plus(&x, -1)?;
        if !((0..=1).contains(&k) && self.nonnegative(&x) && self.nonnegative(&flipped)) {
            return None;
        }
        // `%c` is `x` for `eq 1` / `ne 0`, `1 - x` for `eq 0` / `ne 1`.
        let indicator = match (predicate, k) {
            (0, 1) | (1, 0) => x,
            (0, 0) | (1, 1) => flipped,
            _ => return None,
        };
        Lin::constant(b).plus(&indicator, a.checked_sub(b)?)
    }

    /// `arith.ori x, c` of a constant `0 <= c < 2^k` where every
    /// coefficient and the constant of `x`'s form are multiples of `2^k`
    /// (the low `k` bits of `x` are zero, two's complement): `x + c`.
    fn disjoint_or(&mut self, op: &OperationRef, depth: usize) -> Option<Lin> {
        let a = self.of_at(op.operand_at(0)?, depth + 1);
        let b = self.of_at(op.operand_at(1)?, depth + 1);
        let (x, c) = match (a.as_constant(), b.as_constant()) {
            (_, Some(c)) => (a, c),
            (Some(c), _) => (b, c),
            _ => return None,
        };
        if !(0..1 << 61).contains(&c) {
            return None;
        }
        let low = ((c + 1) as u64).next_power_of_two() as i64;
        let aligned = x.constant_term() % low == 0 && x.terms().all(|(_, k)| k % low == 0);
        aligned.then(|| x.offset(c)).flatten()
    }

    /// `arith.xori x, 1` where `x` is 0 or 1 (a slot toggled between two
    /// buffers, `stage ^= 1`): `1 - x`. That `x` is 0 or 1 is proved from
    /// the facts of its symbols, or, for the iter_arg a recurrence probe is
    /// following, assumed and left to the probe's induction
    /// ([`Self::recurrence_form`]). Any other `x`: `x + 1 - 2 (x mod 2)`.
    fn toggle(&mut self, op: &OperationRef, depth: usize) -> Option<Lin> {
        let a = self.of_at(op.operand_at(0)?, depth + 1);
        let b = self.of_at(op.operand_at(1)?, depth + 1);
        let x = match (a.as_constant(), b.as_constant()) {
            (_, Some(1)) => a,
            (Some(1), _) => b,
            _ => return None,
        };
        let probed = match x.as_symbol() {
            Some(Symbol::Value(key)) if self.probe_stack.contains(&key) => Some(key),
            _ => None,
        };
        let flipped = Lin::constant(1).plus(&x, -1)?;
        if let Some(key) = probed {
            self.assumed.push((key, 2));
        } else if !(self.nonnegative(&x) && self.nonnegative(&flipped)) {
            // Any `x`: flipping the low bit is `x + 1 - 2 (x mod 2)`.
            let low = Lin::modulo(x.clone(), 2, Signedness::Euclidean);
            return x.offset(1)?.plus(&low, -2);
        }
        Some(flipped)
    }

    /// `affine.apply`: its map's single result over the operands' forms.
    fn affine_apply(&mut self, op: &OperationRef, depth: usize) -> Option<Lin> {
        let attribute = op.attribute("map").ok()?;
        // SAFETY: a live attribute, checked to be an affine map.
        let map = unsafe {
            if !mlir_sys::mlirAttributeIsAAffineMap(attribute.to_raw()) {
                return None;
            }
            mlir_sys::mlirAffineMapAttrGetValue(attribute.to_raw())
        };
        // SAFETY: a live affine map.
        let (results, dims) = unsafe {
            (
                mlir_sys::mlirAffineMapGetNumResults(map),
                mlir_sys::mlirAffineMapGetNumDims(map) as usize,
            )
        };
        if results != 1 {
            return None;
        }
        let inputs: Vec<Lin> = op.operands().map(|v| self.of_at(v, depth + 1)).collect();
        // SAFETY: result 0 of a map with one result.
        let expr = unsafe { mlir_sys::mlirAffineMapGetResult(map, 0) };
        // An `index` result: its products may wrap as `arith.muli`'s do.
        no_overflow(false, affine_expr(expr, &inputs, dims)?)
    }

    /// Facts about the symbols of `system` from their defining ops, added to
    /// it (transitively: the facts' own symbols get theirs).
    pub fn add_facts(&mut self, system: &mut System) {
        let mut symbols = Vec::new();
        for c in system.constraints() {
            c.symbols(&mut symbols);
        }
        self.add_facts_of(system, symbols);
    }

    /// Facts about `symbols` (and, transitively, the facts' own symbols),
    /// added to `system`.
    pub fn add_facts_of(&mut self, system: &mut System, mut symbols: Vec<Symbol>) {
        let mut done = 0;
        while done < symbols.len() {
            let s = symbols[done];
            done += 1;
            for fact in self.facts_of(s) {
                fact.symbols(&mut symbols);
                system.push(fact);
            }
        }
    }

    /// The facts of one symbol.
    fn facts_of(&mut self, s: Symbol) -> Vec<Constraint> {
        if let Some(facts) = self.facts.get(&s) {
            return facts.clone();
        }
        let facts = match s {
            Symbol::Value(key) | Symbol::Stale(key) | Symbol::OtherThread(key) => {
                // SAFETY: symbols of values are made from live values of the
                // IR under analysis, which is not changed meanwhile.
                let value = unsafe { value_of(key) };
                self.value_facts(value, s)
            }
            Symbol::Iteration(_) | Symbol::Trips(_) | Symbol::Counter(_) => {
                vec![Constraint::NonNeg(Lin::symbol(s))]
            }
            _ => Vec::new(),
        };
        // Facts found while a recurrence is probed may hold forms that
        // assume the probe's outcome (the probed iter_arg as a plain
        // symbol, a slot range it assumed): not kept.
        if self.probing == 0 {
            self.facts.insert(s, facts.clone());
        }
        facts
    }

    fn value_facts(&mut self, value: Value, s: Symbol) -> Vec<Constraint> {
        let me = Lin::symbol(s);
        let Some(op) = defining_op(value) else {
            // A block or thread id of a `gpu.launch` body: `0 <= id < grid
            // or block size`.
            let Some(size) = gpu::launch_id(value) else {
                return Vec::new();
            };
            let mut out = vec![Constraint::NonNeg(me.clone())];
            if let Some(size) = size {
                out.extend(Constraint::le(&me, &Lin::constant(size - 1)));
            }
            return out;
        };
        let name = ops::name(&op);
        match name {
            // `0 <= tid < block_dim`, where the block size is known.
            "gpu.thread_id" => {
                let mut out = vec![Constraint::NonNeg(me.clone())];
                if let Some(size) = gpu::thread_id_bound(&op) {
                    out.extend(Constraint::le(&me, &Lin::constant(size - 1)));
                }
                out
            }
            // `0 <= bid < grid_dim`, where the grid size is known.
            "gpu.block_id" => {
                let mut out = vec![Constraint::NonNeg(me.clone())];
                if let Some(size) = gpu::block_id_bound(&op) {
                    out.extend(Constraint::le(&me, &Lin::constant(size - 1)));
                }
                out
            }
            "gpu.lane_id"
            | "gpu.subgroup_id"
            | "gpu.global_id"
            | "gpu.cluster_id"
            | "gpu.cluster_block_id" => {
                vec![Constraint::NonNeg(me)]
            }
            "gpu.block_dim"
            | "gpu.grid_dim"
            | "gpu.num_subgroups"
            | "gpu.subgroup_size"
            | "gpu.cluster_dim"
            | "gpu.cluster_dim_blocks" => {
                vec![Constraint::NonNeg(me.offset(-1).unwrap())]
            }
            // The trip count `a < b ? ceildivui(b - a, k) : 0` (the one the
            // pipeliner emits, see `trip_count`): `max(0, ceil((b - a) / k))`,
            // since `b - a > 0` where the unsigned division is taken.
            // (A stale one is still `>= 0`.)
            "arith.select" => {
                let mut facts = self.trip_count_select(&op, me.clone());
                if !matches!(s, Symbol::Value(_)) {
                    facts.retain(|c| *c == Constraint::NonNeg(me.clone()));
                }
                facts
            }
            // On nonnegative operands the unsigned min and max are the
            // signed ones. The unsigned min of anything and a nonnegative
            // value is in `[0, that value]` (the unsigned max of a negative
            // value is negative as a signed one). Nonnegativity comes from
            // the facts of the operands' symbols, which hold in every
            // iteration, so these bounds (not the relation to the operands'
            // current forms) also hold for a stale value.
            "arith.minui" | "arith.maxui" => {
                let a = self.of(op.operand(0).unwrap());
                let b = self.of(op.operand(1).unwrap());
                let current = matches!(s, Symbol::Value(_));
                let (a_nonneg, b_nonneg) = (self.nonnegative(&a), self.nonnegative(&b));
                let mut out = Vec::new();
                if a_nonneg && b_nonneg {
                    out.push(Constraint::NonNeg(me.clone()));
                    if current {
                        out.push(if name == "arith.maxui" {
                            Constraint::Max(me, a, b)
                        } else {
                            Constraint::Min(me, a, b)
                        });
                    }
                } else if name == "arith.minui" && (a_nonneg || b_nonneg) {
                    out.push(Constraint::NonNeg(me.clone()));
                    for c in [a.as_constant(), b.as_constant()].into_iter().flatten() {
                        if c >= 0 {
                            out.extend(Constraint::le(&me, &Lin::constant(c)));
                        }
                    }
                }
                out
            }
            // An unsigned quotient of a nonnegative dividend `a` (by a
            // divisor of at least 1: a division by 0 is undefined) lies in
            // `[0, a]`. The trip count `ceildivui(b - a, max(step, 1))` of
            // a loop whose step is not a constant is one: where `a < b` is
            // known (constant bounds), the pipeliner's `select` of it is it
            // (trial 83: a step loaded from memory; without these facts, the
            // trip-count switch's default case, `min(T, 2) = 2`, no longer
            // bounded T, and the epilogue was reported as racing). As for
            // `minui`, nonnegativity also holds for a stale value, the
            // relation to the operand only for the current one.
            "arith.divui" | "arith.ceildivui" => {
                let a = self.of(op.operand(0).unwrap());
                if !self.nonnegative(&a) {
                    return Vec::new();
                }
                let mut out = vec![Constraint::NonNeg(me.clone())];
                if matches!(s, Symbol::Value(_)) {
                    out.extend(Constraint::le(&me, &a));
                }
                out
            }
            // Relations to the operands hold only for the current values.
            "arith.maxsi" | "arith.minsi" if matches!(s, Symbol::Value(_)) => {
                let a = self.of(op.operand(0).unwrap());
                let b = self.of(op.operand(1).unwrap());
                if name == "arith.maxsi" {
                    vec![Constraint::Max(me, a, b)]
                } else {
                    vec![Constraint::Min(me, a, b)]
                }
            }
            _ => Vec::new(),
        }
    }

    /// Facts of the trip count `a < b ? ceildivui(b - a, k) : 0` (the one
    /// the pipeliner emits, see `trip_count`): it is `>= 0`, and for a
    /// constant `k > 0` it is `max(0, ceil((b - a) / k))`, since `b - a > 0`
    /// where the unsigned division is taken (`sgt b, a` likewise).
    ///
    /// The unsigned form (`ult` / `ugt`, an `scf.for unsigned`): `>= 0`
    /// too, a trip count being below 2^63 as in the signed form (where
    /// `b - a` does not overflow); `max(0, ceil((b - a) / k))` only when `a`
    /// and `b` are nonnegative, where the unsigned comparison and
    /// difference are the signed ones (trial 27: without the first fact,
    /// the pipelined unsigned loop's epilogue was reported as racing).
    fn trip_count_select(&mut self, select: &OperationRef, me: Lin) -> Vec<Constraint> {
        let pattern = || -> Option<(Value, Value, OperationRef, bool)> {
            let condition = defining_op(select.operand_at(0)?)?;
            if !ops::is(&condition, "arith.cmpi") || constant(select.operand_at(2)?) != Some(0) {
                return None;
            }
            let predicate = condition
                .attribute("predicate")
                .ok()
                .and_then(integer_attribute)?;
            let (x, y) = (condition.operand_at(0)?, condition.operand_at(1)?);
            // slt 2, ult 6: x < y; sgt 4, ugt 8: y < x.
            let (a, b) = match predicate {
                2 | 6 => (x, y),
                4 | 8 => (y, x),
                _ => return None,
            };
            let quotient = defining_op(select.operand_at(1)?)?;
            ops::is(&quotient, "arith.ceildivui").then_some((a, b, quotient, predicate >= 6))
        };
        let Some((a, b, quotient, unsigned)) = pattern() else {
            return Vec::new();
        };
        let span = self.of(quotient.operand(0).unwrap());
        let (a, b) = (self.of(a), self.of(b));
        if b.plus(&a, -1).as_ref() != Some(&span) {
            return Vec::new();
        }
        let mut out = vec![Constraint::NonNeg(me.clone())];
        if unsigned && !(self.nonnegative(&a) && self.nonnegative(&b)) {
            return out;
        }
        let k = quotient.operand_at(1).and_then(constant).filter(|k| *k > 0);
        // ceil(d / k) = -floor(-d / k).
        let ceil = k.and_then(|k| Lin::div(span.scaled(-1)?, k, Signedness::Euclidean).scaled(-1));
        if let Some(ceil) = ceil {
            out.push(Constraint::Max(me, Lin::constant(0), ceil));
        }
        out
    }

    /// The trip count of the `scf.for` `l`.
    pub fn trips(&mut self, l: &OperationRef) -> Trips {
        let key = op_key(l);
        if let Some(trips) = self.trips.get(&key) {
            return trips.clone();
        }
        let trips = self.compute_trips(l);
        self.trips.insert(key, trips.clone());
        trips
    }

    fn compute_trips(&mut self, l: &OperationRef) -> Trips {
        let key = op_key(l);
        let symbol = Lin::symbol(Symbol::Trips(key));
        let at_least_one = |count: &Lin| Constraint::NonNeg(count.offset(-1).unwrap());
        if let Some(n) = crate::trip_count::static_trip_count(l).filter(|n| *n <= i64::MAX as u64) {
            let count = Lin::constant(n as i64);
            return Trips {
                when_run: if n >= 1 {
                    Vec::new()
                } else {
                    vec![Constraint::NonNeg(Lin::constant(-1))]
                },
                when_skipped: Some(if n == 0 {
                    Vec::new()
                } else {
                    vec![Constraint::NonNeg(Lin::constant(-1))]
                }),
                count,
            };
        }
        let (Ok(lb), Ok(ub), Ok(_)) = (l.operand(0), l.operand(1), l.operand(2)) else {
            return Trips {
                when_run: vec![at_least_one(&symbol)],
                when_skipped: None,
                count: symbol,
            };
        };
        let step = loop_step(l);
        let (lb, ub) = (self.of(lb), self.of(ub));
        // An unsigned loop whose bounds are nonnegative where it runs
        // compares as a signed one.
        let unsigned = crate::trip_count::is_unsigned(l)
            && !(self.nonnegative_at(&lb, l) && self.nonnegative_at(&ub, l));
        let span = ub.plus(&lb, -1);
        match (step, unsigned, span) {
            (Some(1), false, Some(span)) => Trips {
                when_run: vec![at_least_one(&span)],
                when_skipped: Some(vec![Constraint::NonNeg(span.scaled(-1).unwrap())]),
                count: span,
            },
            (Some(step), false, Some(span)) => {
                // step*(T - 1) < span <= step*T, T >= 1.
                let mut when_run = vec![at_least_one(&symbol)];
                if let (Some(upper), Some(lower)) = (
                    symbol.scaled(step).and_then(|x| x.plus(&span, -1)),
                    span.plus(&symbol.scaled(step).unwrap_or_default(), -1)
                        .and_then(|x| x.offset(step - 1)),
                ) {
                    when_run.push(Constraint::NonNeg(upper));
                    when_run.push(Constraint::NonNeg(lower));
                }
                Trips {
                    when_run,
                    when_skipped: span.scaled(-1).map(|x| vec![Constraint::NonNeg(x)]),
                    count: symbol,
                }
            }
            _ => Trips {
                when_run: vec![at_least_one(&symbol)],
                when_skipped: None,
                count: symbol,
            },
        }
    }

    /// True if `x >= 0` follows from the context of `op` and the facts.
    pub fn nonnegative_at(&mut self, x: &Lin, op: &OperationRef) -> bool {
        if x.as_constant().is_some_and(|c| c >= 0) {
            return true;
        }
        let mut system = self.context(op, None);
        if let Some(c) = Constraint::le(x, &Lin::constant(-1)) {
            system.push(c);
        }
        self.add_facts(&mut system);
        !system.feasible().may()
    }

    /// True if `x >= 0` follows from the facts of its symbols alone.
    fn nonnegative(&mut self, x: &Lin) -> bool {
        if x.as_constant().is_some_and(|c| c >= 0) {
            return true;
        }
        let mut system = System::new();
        if let Some(c) = Constraint::le(x, &Lin::constant(-1)) {
            system.push(c);
        }
        self.add_facts(&mut system);
        !system.feasible().may()
    }

    /// What holds inside the body of the `scf.for` `l`: `0 <= τ_L <= T_L - 1`
    /// and the trip count's definition (or, for a non-constant step,
    /// `lb <= iv < ub`).
    pub fn loop_body_constraints(&mut self, l: &OperationRef) -> Vec<Constraint> {
        let tau = Lin::symbol(Symbol::Iteration(op_key(l)));
        let trips = self.trips(l);
        let mut out = trips.when_run.clone();
        out.push(Constraint::NonNeg(tau.clone()));
        if let Some(last) = trips.count.plus(&tau, -1).and_then(|x| x.offset(-1)) {
            out.push(Constraint::NonNeg(last));
        }
        let step = loop_step(l);
        if step.is_none() {
            let iv = l
                .region_at(0)
                .and_then(|r| r.first_block())
                .and_then(|b| apipe_dialect::ops::argument_at(&b, 0));
            if let (Some(iv), Ok(lb), Ok(ub)) = (iv, l.operand(0), l.operand(1)) {
                let iv = self.of(iv.into());
                let (lb, ub) = (self.of(lb), self.of(ub));
                if let Some(c) = Constraint::le(&lb, &iv) {
                    out.push(c);
                }
                if let Some(c) = iv.offset(1).and_then(|x| Constraint::le(&x, &ub)) {
                    out.push(c);
                }
            }
        }
        out
    }

    /// What holds where `op` runs because of the ops around it, up to (not
    /// including) `stop` or the enclosing function: loop bounds, `scf.if`
    /// conditions, `scf.index_switch` cases; with the facts of their
    /// symbols.
    pub fn context(&mut self, op: &OperationRef, stop: Option<&OperationRef>) -> System {
        let mut system = System::new();
        let mut child = *op;
        while let Some(parent) = child.parent_operation() {
            if stop == Some(&parent) || ops::is_function(&parent) {
                break;
            }
            let region = region_index(&parent, &child);
            self.add_region_constraints(&parent, region, &mut system);
            child = parent;
        }
        self.add_facts(&mut system);
        system
    }

    /// The constraints that hold in region `region` of `parent` (see
    /// [`Self::context`]).
    pub fn add_region_constraints(
        &mut self,
        parent: &OperationRef,
        region: Option<usize>,
        system: &mut System,
    ) {
        let name = ops::name(parent);
        match (name, region) {
            ("scf.for", Some(0)) => system.extend(self.loop_body_constraints(parent)),
            // An `scf.while`'s iteration (the back edges taken) is
            // nonnegative; its `after` region runs where the condition holds.
            ("scf.while", Some(region)) => {
                system.push(Constraint::NonNeg(Lin::symbol(Symbol::Iteration(op_key(
                    parent,
                )))));
                let condition = (region == 1)
                    .then(|| parent.region_at(0)?.first_block()?.terminator())
                    .flatten()
                    .and_then(|c| c.operand_at(0));
                if let Some(condition) = condition {
                    system.extend(self.condition(condition, true));
                }
            }
            ("scf.if", Some(branch)) => {
                if let Some(condition) = parent.operand_at(0) {
                    system.extend(self.condition(condition, branch == 0));
                }
            }
            ("scf.index_switch", Some(region)) => {
                let (Ok(selector), Some(cases)) = (parent.operand(0), dense_i64(parent, "cases"))
                else {
                    return;
                };
                let x = self.of(selector);
                if region >= 1 {
                    if let Some(case) = cases.get(region - 1) {
                        system.extend(Constraint::eq(&x, &Lin::constant(*case)));
                    }
                } else if let Some(c) = self.default_case(&x, &cases) {
                    system.push(c);
                } else if cases.len() <= MOST_DEFAULT_CASES {
                    // `x` is none of the cases: a disjunction per case,
                    // decided by cases in the solver.
                    for case in &cases {
                        system.extend(x.offset(-case).map(Constraint::NonZero));
                    }
                }
            }
            _ => {}
        }
    }

    /// In the `default` region of a switch on `x` whose cases are the
    /// contiguous range `[a, b]`: `x >= b + 1` if `x >= a` is provable from
    /// the facts, `x <= a - 1` if `x <= b` is.
    fn default_case(&mut self, x: &Lin, cases: &[i64]) -> Option<Constraint> {
        let (a, b) = (*cases.iter().min()?, *cases.iter().max()?);
        if (b - a + 1) as usize != cases.len() {
            return None;
        }
        let provable = |this: &mut Self, negation: Constraint| {
            let mut system = System::new();
            system.push(negation);
            this.add_facts(&mut system);
            !system.feasible().may()
        };
        // x >= a unless x <= a - 1 is feasible.
        if provable(self, Constraint::le(x, &Lin::constant(a - 1))?) {
            return Constraint::le(&Lin::constant(b + 1), x);
        }
        if provable(self, Constraint::le(&Lin::constant(b + 1), x)?) {
            return Constraint::le(x, &Lin::constant(a - 1));
        }
        None
    }

    /// What holds when the `i1` value `condition` is `holds`: the value
    /// itself, and for an `arith.cmpi` of forms, the comparison.
    pub fn condition(&mut self, condition: Value, holds: bool) -> Vec<Constraint> {
        let mut out = vec![Constraint::Holds(
            Symbol::Value(value_key(condition)),
            holds,
        )];
        if let Some(c) = self.folded_condition(condition, 0) {
            // `arith.constant true/false`, or `andi` / `ori` / `xori` /
            // `cmpi` of constants: the other branch never runs.
            if c != holds {
                out.push(Constraint::NonNeg(Lin::constant(-1)));
            }
            return out;
        }
        let Some(op) = defining_op(condition) else {
            out.extend(self.iter_arg_condition(condition, holds));
            return out;
        };
        // Conjunctions: `a andi b` holds where both hold; `a ori b` fails
        // where both fail; `a xori true` is the negation of `a`. (The other
        // outcomes are disjunctions: only the condition's own symbol.)
        if op.operand_count() == 2 && self.condition_depth < 16 {
            let (a, b) = (op.operand(0).unwrap(), op.operand(1).unwrap());
            let parts: Vec<(Value, bool)> = match (ops::name(&op), holds) {
                ("arith.andi", true) | ("arith.ori", false) => vec![(a, holds), (b, holds)],
                ("arith.xori", _) if constant(b).is_some_and(|c| c != 0) => vec![(a, !holds)],
                ("arith.xori", _) if constant(a).is_some_and(|c| c != 0) => vec![(b, !holds)],
                _ => Vec::new(),
            };
            if !parts.is_empty() {
                self.condition_depth += 1;
                for (part, holds) in parts {
                    out.extend(self.condition(part, holds));
                }
                self.condition_depth -= 1;
                return out;
            }
        }
        if ops::is(&op, "scf.for") {
            out.extend(self.loop_result_condition(condition, &op, holds));
            return out;
        }
        // `arith.trunci %x : iN to i1` is the low bit of `x` (trial 40: a
        // stage buffer picked by `trunci i to i1` was either buffer, two
        // false errors).
        if ops::is(&op, "arith.trunci") {
            if let Some(x) = op.operand_at(0) {
                let bit = Lin::modulo(self.of(x), 2, Signedness::Euclidean);
                if let Some(c) = bit.offset(if holds { -1 } else { 0 }) {
                    out.push(Constraint::Zero(c));
                }
            }
            return out;
        }
        // Operands of any width: [`Forms::of`] reads a narrower integer as
        // its two's-complement value (trial 37: an `i8` comparison that
        // never held chose a buffer the checker then took as possible).
        let Some((predicate, a, b)) = cmpi_of(condition) else {
            return out;
        };
        let bits = width(a.r#type());
        let (a, b) = (self.of(a), self.of(b));
        // An unsigned comparison of narrower integers compares their
        // unsigned values, `x mod 2^bits` (trial 54: `ule x, 7 : i3` holds
        // for every `x`, but read as two's complement the 7 was -1).
        let unsigned = |form: Lin| match bits {
            Some(bits) if bits < 64 => two_complement(form, bits, false),
            _ => Some(form),
        };
        let (a, b) = if (6..=9).contains(&predicate) {
            match (unsigned(a), unsigned(b)) {
                (Some(a), Some(b)) => (a, b),
                _ => return out,
            }
        } else {
            (a, b)
        };
        out.extend(self.comparison(predicate, a, b, holds));
        out
    }

    /// [`Forms::folded_condition`]: the value of an `i1` that folds to a
    /// constant.
    pub fn folded(&mut self, condition: Value) -> Option<bool> {
        self.folded_condition(condition, 0)
    }

    /// The value of the `i1` `condition` where it is a constant, or
    /// `arith.andi` / `ori` / `xori` / `cmpi` of operands that are (the
    /// forms of a `cmpi`'s operands constant; an `andi` with a false
    /// operand is false and an `ori` with a true one true, whatever the
    /// other): `None` otherwise.
    fn folded_condition(&mut self, condition: Value, depth: usize) -> Option<bool> {
        if let Some(c) = constant(condition) {
            return Some(c != 0);
        }
        if depth >= 16 {
            return None;
        }
        let op = defining_op(condition)?;
        let name = ops::name(&op);
        if let ("arith.andi" | "arith.ori" | "arith.xori", 2) = (name, op.operand_count()) {
            let a = self.folded_condition(op.operand_at(0)?, depth + 1);
            let b = self.folded_condition(op.operand_at(1)?, depth + 1);
            return match (name, a, b) {
                ("arith.andi", Some(false), _) | ("arith.andi", _, Some(false)) => Some(false),
                ("arith.ori", Some(true), _) | ("arith.ori", _, Some(true)) => Some(true),
                (_, Some(a), Some(b)) => Some(match name {
                    "arith.andi" => a && b,
                    "arith.ori" => a || b,
                    _ => a != b,
                }),
                _ => None,
            };
        }
        // Operands read as their values (a narrower integer sign-extended:
        // the order of every predicate is kept).
        let (predicate, a, b) = cmpi_of(condition)?;
        let (form_a, form_b) = (self.of_at(a, depth + 1), self.of_at(b, depth + 1));
        let a = self.exact(a, form_a, true).as_constant()?;
        let b = self.exact(b, form_b, true).as_constant()?;
        evaluate(predicate, a, b)
    }

    /// What holds when the `i1` iter_arg `n` (block argument `n >= 1`) of
    /// the `scf.for` `l` is `holds`, where it is a **shifted condition**:
    /// the body yields for it `a(τ_L) <predicate> b(τ_L)` (an `arith.cmpi`
    /// of forms that depend on no value of the loop but through `τ_L`),
    /// so in iteration `τ_L >= 1` the iter_arg is `a(τ_L - 1) <predicate>
    /// b(τ_L - 1)`. That is exact in iteration 0 as well where the init is
    /// the same comparison at `τ_L = -1` (the pipeliner's guard of the
    /// previous stage, carried one iteration: `(i + 1) mod 3 != 1` yielded,
    /// `0 mod 3 != 1` passed in), or where the init cannot be `holds`
    /// (`init_excluded`: then `τ_L >= 1`). `None` otherwise.
    fn shifted_condition(
        &mut self,
        l: &OperationRef,
        yielded: Value,
        init: Value,
        holds: bool,
        init_excluded: bool,
    ) -> Option<Vec<Constraint>> {
        let (predicate, a, b) = compare_of(yielded)?;
        let tau = Symbol::Iteration(op_key(l));
        let mut before = |v: Value| -> Option<Lin> {
            let form = self.of(v);
            let mut symbols = Vec::new();
            form.symbols(&mut symbols);
            let outside = symbols.iter().all(|s| match s {
                Symbol::Value(k) | Symbol::Stale(k) => !defined_inside(*k, l),
                Symbol::Iteration(k) | Symbol::Trips(k) => *s == tau || !loop_inside(*k, l),
                _ => true,
            });
            if !outside {
                return None;
            }
            form.replace(tau, &Lin::symbol(tau).offset(-1)?)
        };
        let (a, b) = (before(a)?, before(b)?);
        let exact_at_zero = init_excluded || {
            let at_zero = |x: &Lin| x.replace(tau, &Lin::constant(0));
            let (a0, b0) = (at_zero(&a)?, at_zero(&b)?);
            match (a0.as_constant(), b0.as_constant()) {
                (Some(x), Some(y)) => {
                    let value = evaluate(predicate, x, y);
                    value.is_some() && self.folded_condition(init, 0) == value
                }
                _ => compare_of(init).is_some_and(|(p, ia, ib)| {
                    p == predicate && self.of(ia) == a0 && self.of(ib) == b0
                }),
            }
        };
        exact_at_zero.then(|| self.comparison(predicate, a, b, holds))
    }

    /// What holds when the `i1` result `value` of the `scf.for` `l` is
    /// `holds`, for a loop of a constant trip count `T >= 1` whose yield
    /// for it is an `arith.cmpi` of forms: the comparison in the last
    /// iteration (`τ_L = T - 1`), provided the forms then name nothing
    /// defined in `l` nor any iteration in it (a guard carried out of a
    /// pipelined loop, as `scf.if %carried` around the epilogue's read).
    /// Empty otherwise.
    fn loop_result_condition(
        &mut self,
        value: Value,
        l: &OperationRef,
        holds: bool,
    ) -> Vec<Constraint> {
        let found = (|| {
            // SAFETY: `value` is a live result of `l`.
            let n = unsafe { mlir_sys::mlirOpResultGetResultNumber(value.to_raw()) } as usize;
            let (predicate, a, b) = compare_of(region_yield(l, 0, n)?)?;
            let last = self.trips(l).count.as_constant().filter(|t| *t >= 1)? - 1;
            let tau = Symbol::Iteration(op_key(l));
            let mut at_last = |v: Value| -> Option<Lin> {
                let form = self.of(v).replace(tau, &Lin::constant(last))?;
                let mut symbols = Vec::new();
                form.symbols(&mut symbols);
                symbols
                    .iter()
                    .all(|s| match s {
                        Symbol::Value(k) | Symbol::Stale(k) => !defined_inside(*k, l),
                        Symbol::Iteration(k) | Symbol::Trips(k) => !loop_inside(*k, l),
                        _ => true,
                    })
                    .then_some(form)
            };
            Some((predicate, at_last(a)?, at_last(b)?))
        })();
        match found {
            Some((predicate, a, b)) => self
                .comparison(predicate, a, b, holds)
                .into_iter()
                .collect(),
            None => Vec::new(),
        }
    }

    /// What holds when the `i1` iter_arg `value` of an `scf.for` `l` is
    /// `holds`: with `x_0 = value` and `x_{j+1}` the iter_arg that `x_j`
    /// yields (a window of guards shifted along the iter_args, as a
    /// pipelined loop carries its stages' conditions), `x_0` in iteration
    /// `τ = j` (before the window's end) is the initial value of `x_j`;
    /// where that cannot be `holds` (its [`Self::condition`] is
    /// infeasible: a prologue iteration that did not issue its copy),
    /// `τ_L != j`. Empty when every initial value can be `holds`.
    fn iter_arg_condition(&mut self, value: Value, holds: bool) -> Vec<Constraint> {
        let Some((block, n)) = block_argument(value) else {
            return Vec::new();
        };
        let Some(l) = block.parent_operation() else {
            return Vec::new();
        };
        if n == 0
            || !ops::is(&l, "scf.for")
            || !ops::is_entry_block(&block)
            || self.condition_depth >= 16
        {
            return Vec::new();
        }
        let Some(terminator) = block.terminator() else {
            return Vec::new();
        };
        let tau = Lin::symbol(Symbol::Iteration(op_key(&l)));
        let mut out = Vec::new();
        let mut x = n;
        let mut init_excluded = false;
        for j in 0..16i64 {
            let Some(init) = l.operand_at(3 + x - 1) else {
                break;
            };
            self.condition_depth += 1;
            let mut system = System::new();
            system.extend(self.condition(init, holds));
            self.condition_depth -= 1;
            self.add_facts(&mut system);
            if !system.feasible().may() {
                out.extend(tau.offset(-j).map(Constraint::NonZero));
                init_excluded |= j == 0;
            }
            match terminator.operand_at(x - 1).and_then(block_argument) {
                Some((b, m)) if b == block && m >= 1 && m != n => x = m,
                _ => break,
            }
        }
        if let (Some(yielded), Some(init)) = (terminator.operand_at(n - 1), l.operand_at(3 + n - 1))
        {
            if block_argument(yielded).is_none() {
                self.condition_depth += 1;
                let shifted = self.shifted_condition(&l, yielded, init, holds, init_excluded);
                self.condition_depth -= 1;
                out.extend(shifted.into_iter().flatten());
            }
        }
        out
    }

    /// The constraints that hold where `a <predicate> b` (an `arith.cmpi`
    /// predicate) holds (`holds`) or fails; none where they are not
    /// linear ones (an unsigned comparison of values of unknown sign gives
    /// a bound only through [`Self::unsigned_below`]).
    fn comparison(&mut self, predicate: i64, a: Lin, b: Lin, holds: bool) -> Vec<Constraint> {
        // arith::CmpIPredicate: eq 0, ne 1, slt 2, sle 3, sgt 4, sge 5,
        // ult 6, ule 7, ugt 8, uge 9. On operands that are nonnegative by
        // the facts of their symbols (loop iterations, thread ids, sizes),
        // an unsigned comparison is the signed one.
        let predicate = if (6..=9).contains(&predicate) {
            if !(self.nonnegative(&a) && self.nonnegative(&b)) {
                return self.unsigned_below(predicate, a, b, holds);
            }
            predicate - 4
        } else {
            predicate
        };
        let (predicate, a, b) = if holds {
            (predicate, a, b)
        } else {
            match predicate {
                0 => (1, a, b),
                1 => (0, a, b),
                2 => (5, a, b),
                3 => (4, a, b),
                4 => (3, a, b),
                5 => (2, a, b),
                _ => return Vec::new(),
            }
        };
        let one = Lin::constant(1);
        match predicate {
            0 => Constraint::eq(&a, &b),
            // `a != b`: a disjunction, decided by cases in the solver.
            1 => a.plus(&b, -1).map(Constraint::NonZero),
            2 => a.plus(&one, 1).and_then(|a1| Constraint::le(&a1, &b)),
            3 => Constraint::le(&a, &b),
            4 => b.plus(&one, 1).and_then(|b1| Constraint::le(&b1, &a)),
            5 => Constraint::le(&b, &a),
            _ => None,
        }
        .into_iter()
        .collect()
    }

    /// An unsigned comparison (predicate 6 to 9) of `a` and `b`, not both
    /// known nonnegative, that is `holds`: when it says `x <u y` or
    /// `x <=u y` of a `y` known nonnegative, `x` as a signed value is in
    /// `[0, y)` or `[0, y]` (a negative `x` is at least 2^63 unsigned, above
    /// any nonnegative `y`): a bound `off ule 2` of an index argument bounds
    /// it in the branch. Nothing otherwise.
    fn unsigned_below(&mut self, predicate: i64, a: Lin, b: Lin, holds: bool) -> Vec<Constraint> {
        // (x, y, strict): the comparison that holds is `x < y` (strict) or
        // `x <= y`, unsigned.
        let (x, y, strict) = match (predicate, holds) {
            (6, true) | (9, false) => (a, b, true),
            (7, true) | (8, false) => (a, b, false),
            (8, true) | (7, false) => (b, a, true),
            (9, true) | (6, false) => (b, a, false),
            _ => return Vec::new(),
        };
        if !self.nonnegative(&y) {
            return Vec::new();
        }
        let x_end = if strict { x.offset(1) } else { Some(x.clone()) };
        match x_end.and_then(|end| Constraint::le(&end, &y)) {
            Some(below) => vec![Constraint::NonNeg(x), below],
            None => Vec::new(),
        }
    }
}

/// `a <predicate> b` (an `arith::CmpIPredicate`, on 64-bit values) of
/// constants; `None` for an unknown predicate.
pub(crate) fn evaluate(predicate: i64, a: i64, b: i64) -> Option<bool> {
    let (ua, ub) = (a as u64, b as u64);
    Some(match predicate {
        0 => a == b,
        1 => a != b,
        2 => a < b,
        3 => a <= b,
        4 => a > b,
        5 => a >= b,
        6 => ua < ub,
        7 => ua <= ub,
        8 => ua > ub,
        9 => ua >= ub,
        _ => return None,
    })
}

/// `(predicate, lhs, rhs)` if `value` is an `arith.cmpi` (its
/// `arith::CmpIPredicate` as an integer), whatever its operands' width.
fn cmpi_of<'c: 'a, 'a>(value: Value<'c, 'a>) -> Option<(i64, Value<'c, 'a>, Value<'c, 'a>)> {
    let op = defining_op(value)?;
    if !ops::is(&op, "arith.cmpi") || op.operand_count() != 2 {
        return None;
    }
    let predicate = op.attribute("predicate").ok().and_then(integer_attribute)?;
    Some((predicate, op.operand_at(0)?, op.operand_at(1)?))
}

/// [`cmpi_of`] of `index` or 64-bit operands only: the forms of narrower
/// integers are exact integers, but the operations wrap at their width
/// (`x + 1 < x` holds for the largest `i32`, and an `index_cast` to `i32`
/// of a nonnegative index can be negative), so a comparison of their forms
/// could call a path that runs infeasible (trial 17: two missed hazards).
fn compare_of<'c: 'a, 'a>(value: Value<'c, 'a>) -> Option<(i64, Value<'c, 'a>, Value<'c, 'a>)> {
    let (predicate, a, b) = cmpi_of(value)?;
    let ty = a.r#type();
    (melior::ir::TypeLike::is_index(&ty) || integer_width(ty) == Some(64))
        .then_some((predicate, a, b))
}

/// The `bits`-bit integer (`1 <= bits < 62`) congruent to `form` modulo
/// `2^bits`, read as signed (`((x + 2^(bits-1)) mod 2^bits) - 2^(bits-1)`,
/// two's complement) or unsigned (the Euclidean `x mod 2^bits`); a
/// constant folded. `None` for wider integers.
fn two_complement(form: Lin, bits: u32, signed: bool) -> Option<Lin> {
    if !(1..62).contains(&bits) {
        return None;
    }
    let size = 1i64 << bits;
    let half = if signed { size / 2 } else { 0 };
    if let Some(c) = form.as_constant() {
        return Some(Lin::constant((c + half).rem_euclid(size) - half));
    }
    Lin::modulo(form.offset(half)?, size, Signedness::Euclidean).offset(-half)
}

/// The width of an integer or `index` type (`index` as 64 bits, the
/// targets' index width); `None` for other types.
pub(crate) fn width(ty: melior::ir::Type) -> Option<u32> {
    if melior::ir::TypeLike::is_index(&ty) {
        return Some(64);
    }
    integer_width(ty)
}

/// Below this magnitude, in every coefficient and the constant, the form
/// of a 64-bit or `index` sum or product is taken as its value.
const NO_OVERFLOW_BOUND: i64 = 1 << 32;

/// `form`, the form of a ring operation's result: kept for a `narrow`
/// (below 64 bits) result, whose forms are residues; for a 64-bit or
/// `index` result, kept only while every coefficient and the constant lie
/// below [`NO_OVERFLOW_BOUND`] in magnitude, else `None` (a symbol: the
/// product may wrap at 64 bits, trial 35: `(i + 1) * 2^62` was taken as
/// never meeting index 0, and the pipeliner missed a dependence).
fn no_overflow(narrow: bool, form: Lin) -> Option<Lin> {
    let small = |c: i64| c.checked_abs().is_some_and(|a| a < NO_OVERFLOW_BOUND);
    (narrow || (small(form.constant_term()) && form.terms().all(|(_, c)| small(c)))).then_some(form)
}

/// Operand `r` of the terminator of region `i`'s first block of `op` (what
/// an `scf.if` branch yields for result `r`).
pub fn region_yield<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    i: usize,
    r: usize,
) -> Option<Value<'c, 'a>> {
    op.region_at(i)?.first_block()?.terminator()?.operand_at(r)
}

/// The width of an integer type (`None` for `index` and other types).
fn integer_width(ty: melior::ir::Type) -> Option<u32> {
    use melior::ir::TypeLike as _;
    // SAFETY: `ty` is a live type; read as an integer type only if it is one.
    unsafe {
        mlir_sys::mlirTypeIsAInteger(ty.to_raw())
            .then(|| mlir_sys::mlirIntegerTypeGetWidth(ty.to_raw()))
    }
}

/// Which region of `parent` holds `child` (an op nested in it).
pub fn region_index(parent: &OperationRef, child: &OperationRef) -> Option<usize> {
    let region = child.block()?.parent_region()?;
    (0..parent.region_count()).find(|i| {
        parent
            .region(*i)
            .is_ok_and(|r| r.to_raw().ptr == region.to_raw().ptr)
    })
}

/// The dividends of the remainders and quotients in `x` that are not
/// Euclidean (nested ones too).
fn collect_dividends(x: &Lin, out: &mut Vec<Lin>) {
    for (atom, _) in x.terms() {
        if let Atom::Mod(y, _, sign) | Atom::Div(y, _, sign) = atom {
            if *sign != Signedness::Euclidean {
                out.push((**y).clone());
            }
            collect_dividends(y, out);
        }
    }
}

/// `inc mod K` for `inc` in `[1, K]`, with `((z mod K) + c) mod K`
/// written `(z + c) mod K` (Euclidean remainders), so that a slot advanced
/// from `(init + τ) mod K` is `(init + τ + 1) mod K`.
fn wrapped(inc: Lin, slots: i64) -> Lin {
    let folded = match (inc.terms().next(), inc.terms().nth(1)) {
        (Some((Atom::Mod(z, v, Signedness::Euclidean), 1)), None) if *v == slots => {
            z.offset(inc.constant_term())
        }
        _ => None,
    };
    Lin::modulo(folded.unwrap_or(inc), slots, Signedness::Euclidean)
}

/// The form of an affine expression over `inputs` (dims, then symbols).
fn affine_expr(expr: mlir_sys::MlirAffineExpr, inputs: &[Lin], dims: usize) -> Option<Lin> {
    // SAFETY: `expr` is a live affine expression; each accessor is called on
    // the kind it requires.
    unsafe {
        if mlir_sys::mlirAffineExprIsAConstant(expr) {
            return Some(Lin::constant(mlir_sys::mlirAffineConstantExprGetValue(
                expr,
            )));
        }
        if mlir_sys::mlirAffineExprIsADim(expr) {
            return inputs
                .get(mlir_sys::mlirAffineDimExprGetPosition(expr) as usize)
                .cloned();
        }
        if mlir_sys::mlirAffineExprIsASymbol(expr) {
            return inputs
                .get(dims + mlir_sys::mlirAffineSymbolExprGetPosition(expr) as usize)
                .cloned();
        }
        if !mlir_sys::mlirAffineExprIsABinary(expr) {
            return None;
        }
        let lhs = affine_expr(mlir_sys::mlirAffineBinaryOpExprGetLHS(expr), inputs, dims)?;
        let rhs = affine_expr(mlir_sys::mlirAffineBinaryOpExprGetRHS(expr), inputs, dims)?;
        let positive = rhs.as_constant().filter(|c| *c > 0);
        if mlir_sys::mlirAffineExprIsAAdd(expr) {
            lhs.plus(&rhs, 1)
        } else if mlir_sys::mlirAffineExprIsAMul(expr) {
            match (lhs.as_constant(), rhs.as_constant()) {
                (_, Some(c)) => lhs.scaled(c),
                (Some(c), _) => rhs.scaled(c),
                _ => None,
            }
        } else if mlir_sys::mlirAffineExprIsAMod(expr) {
            // Affine `mod` is Euclidean.
            Some(Lin::modulo(lhs, positive?, Signedness::Euclidean))
        } else if mlir_sys::mlirAffineExprIsAFloorDiv(expr) {
            Some(Lin::div(lhs, positive?, Signedness::Euclidean))
        } else if mlir_sys::mlirAffineExprIsACeilDiv(expr) {
            Lin::div(lhs.scaled(-1)?, positive?, Signedness::Euclidean).scaled(-1)
        } else {
            None
        }
    }
}
