//! `apipe-mbarrier-to-nvvm{sm=80}`: the mbarrier form (docs/mbarrier.md) to
//! NVVM ops and PTX, for the GPU lowering.
//!
//! Each slot of a ring `memref<K x i64, 3>` is one 64-bit mbarrier object in
//! shared memory; its address is the ring's aligned pointer plus 8 × slot
//! (the verifier guarantees the identity layout and a static K).
//!
//! Algorithm:
//! 1. check every op before touching the IR, each refusal a located error:
//!    `sm` is 80, 86, 89 or 90; every ring fits the shared memory a block
//!    may use on `sm` (8 bytes per slot; the opt-in maximum, 163 KiB on
//!    sm_80); `apipe.bulk_copy` and
//!    `apipe.mbarrier_expect_tx` (Hopper bulk copies) follow the rules of
//!    [`bulk::check`] (sm_90 only);
//! 2. `apipe.mbarrier_init %ring, %n` becomes one `nvvm.mbarrier.init`
//!    (`mbarrier.init.shared.b64`, PTX ISA 9.7.13.15.9) per slot with the
//!    arrival count `%n` as `i32` (an `scf.for` over the slots for a ring
//!    of more than [`UNROLLED_INIT_SLOTS`]). No `fence.mbarrier_init` follows: the
//!    PTX ISA requires it only to make the initialisation visible to the
//!    async proxy (bulk copies, TMA) or to other CTAs of a cluster; the
//!    `gpu.barrier` that `apipe-tokens-to-mbarrier` places after the
//!    initialisation orders it for the `cp.async` arrivals and waits of
//!    the CTA's threads;
//! 3. `apipe.mbarrier_arrive_copies %ring[%s]` becomes
//!    `nvvm.cp.async.mbarrier.arrive {noinc = true}`
//!    (`cp.async.mbarrier.arrive.noinc.shared.b64`, PTX ISA 9.7.9.25.3.5):
//!    the arrival is one of the expected count, triggered when the thread's
//!    earlier `cp.async` copies land;
//! 4. `apipe.mbarrier_wait %ring[%s], %p` becomes a loop until the phase
//!    of parity `%p` has completed:
//!    - sm_90: `nvvm.mbarrier.try_wait.parity` (upstream's loop around
//!      `mbarrier.try_wait.parity.shared.b64`, PTX ISA 9.7.13.15.16, with
//!      a suspend-time hint of [`SUSPEND_TIME_HINT_NS`]);
//!    - sm_80 to sm_89: `mbarrier.test_wait.parity.shared.b64` in a loop,
//!      as `llvm.inline_asm` with a memory clobber: ptxas refuses
//!      `try_wait` before sm_90, and LLVM 22's NVVM intrinsic for
//!      `test_wait.parity` carries `.scope.cta`, which needs sm_90 too
//!      (ISel aborts on it). `test_wait.parity` needs PTX ISA 7.1, which
//!      `apipe-translate` selects for the mbarrier form on sm_80.
//!
//! 5. `apipe.bulk_copy` and `apipe.mbarrier_expect_tx` (sm_90): see
//!    [`bulk`] (`cp.async.bulk` completing its bytes on the slot,
//!    `mbarrier.expect_tx`, and `fence.mbarrier_init` after the
//!    initialisation of a ring that bulk copies complete bytes on).
//!
//! Both waits have acquire semantics at CTA scope (the default of both
//! instructions): once a wait returns, every copy that the completed
//! phase's arrivals tracked, in every thread of the CTA, is visible.
//!
//! Postcondition: no mbarrier op is left. Copies are lowered by
//! `apipe-to-nvgpu` (before or after this pass).

mod bulk;

use apipe_dialect::ops::Checked as _;
use apipe_dialect::{diagnostic, ops, Reported};
use apipe_passes::{OptionInfo, OptionKind, PassInfo, PassOptions, RunFn};
use melior::{
    dialect::{arith, scf, DialectHandle},
    ir::{
        attribute::{Attribute, IntegerAttribute, StringAttribute},
        operation::{OperationBuilder, OperationLike},
        r#type::IntegerType,
        Block, BlockLike, Identifier, Location, OperationRef, Region, RegionLike, Type, Value,
    },
    Context,
};

/// The registry entry of `apipe-mbarrier-to-nvvm`.
pub static INFO: PassInfo = PassInfo {
    argument: "apipe-mbarrier-to-nvvm",
    name: "ApipeMbarrierToNvvm",
    summary: "Lower the mbarrier form to NVVM mbarrier ops (sm_90: try_wait.parity; sm_80: a test_wait.parity loop)",
    options: &[OptionInfo {
        name: "sm",
        kind: OptionKind::Int,
        description: "the target architecture: 80, 86, 89 or 90 (default 80)",
    }],
    run: run as RunFn,
    dependent_dialects: || {
        vec![
            DialectHandle::arith(),
            DialectHandle::memref(),
            DialectHandle::llvm(),
            // SAFETY: the C API returns a static handle.
            unsafe { DialectHandle::from_raw(mlir_sys::mlirGetDialectHandle__nvvm__()) },
        ]
    },
    reads_only: false,
    follows_calls: false,
};

/// The suspend-time hint of `mbarrier.try_wait.parity` on sm_90, in
/// nanoseconds (CUTLASS's `ClusterBarrier::wait` uses the same 10 ms).
pub const SUSPEND_TIME_HINT_NS: i64 = 10_000_000;

/// The sm_80 wait: `mbarrier.test_wait.parity` until it reports the phase
/// complete (`$0`: the slot's shared address, `$1`: the parity as `i32`).
pub const TEST_WAIT_LOOP: &str = "{\n\t.reg .pred P1;\n\tLAB_WAIT:\n\t\
mbarrier.test_wait.parity.shared.b64 P1, [$0], $1;\n\t@!P1 bra.uni LAB_WAIT;\n\t}";

/// Creates the `apipe-mbarrier-to-nvvm` pass for sm_80.
pub fn create_mbarrier_to_nvvm_pass() -> melior::pass::Pass {
    INFO.create("").expect("no options")
}

fn run(op: OperationRef, options: &PassOptions) -> Result<(), Reported> {
    let sm = options.int("sm", 80);
    if ![80, 86, 89, 90].contains(&sm) {
        diagnostic::error(
            op.location(),
            &format!("apipe-mbarrier-to-nvvm: sm={sm}: expected 80, 86, 89 or 90"),
        );
        return Err(Reported);
    }
    mbarrier_to_nvvm(&op, sm as u32)
}

/// Rings of at most this many slots are initialised by one
/// `nvvm.mbarrier.init` per slot; larger ones by a loop over the slots.
const UNROLLED_INIT_SLOTS: i64 = 16;

/// K, the slots of a ring `memref<K x i64, 3>` (the verifier guarantees a
/// static K).
fn ring_slots(ring: Value) -> i64 {
    ops::ring_slots(ring).expect("verified ring: a static K")
}

/// Step 1: the ops this pass cannot lower for `sm`, each reported at its
/// op.
fn check(nested: &[OperationRef], sm: u32) -> bool {
    let mut ok = true;
    let limit = apipe_passes::software_pipeline::opt_in_limit(&sm.to_string())
        .expect("sm checked by the caller");
    for op in nested {
        if ops::is(op, ops::MBARRIER_INIT) {
            // One 8-byte mbarrier object per slot, all in the block's
            // shared memory (a fuzzed ring of 2^40 slots made step 2 emit
            // 2^40 inits).
            let slots = ring_slots(op.operand(0).unwrap());
            if slots.checked_mul(8).is_none_or(|bytes| bytes > limit) {
                diagnostic::error(
                    op.location(),
                    &format!(
                        "'apipe.mbarrier_init' op initialises a ring of {slots} slots ({} bytes of shared memory): more than the {limit} bytes a block may use on sm_{sm}",
                        slots.saturating_mul(8)
                    ),
                );
                ok = false;
            }
        }
        if ops::is(op, ops::MBARRIER_EXPECT_TX) || ops::is(op, ops::BULK_COPY) {
            for message in bulk::check(op, sm) {
                diagnostic::error(op.location(), &message);
                ok = false;
            }
        }
    }
    ok
}

/// Lowers every mbarrier op nested in `root` for `sm` (80 to 90). On
/// failure the IR is unchanged and located errors have been emitted.
///
/// # Errors
/// [`Reported`] after located errors.
pub fn mbarrier_to_nvvm<'c: 'a, 'a>(
    root: &impl OperationLike<'c, 'a>,
    sm: u32,
) -> Result<(), Reported> {
    let nested = ops::nested_ops(root);
    if !check(&nested, sm) {
        return Err(Reported);
    }
    // Step 5: the destinations of bulk copies aligned to 16 bytes (as
    // apipe-to-nvgpu does for cp.async), and the rings that bulk copies
    // complete bytes on.
    crate::to_nvgpu::align_destinations(root, &nested);
    let bulk_rings: Vec<Value> = nested
        .iter()
        .filter(|op| ops::is(*op, ops::BULK_COPY))
        .filter_map(|op| op.operand_at(2))
        .collect();
    let context_ref = root.context();
    // SAFETY: bound first (a temporary context ref would dangle).
    let context: &Context = unsafe { context_ref.to_ref() };
    let lower = Lower::new(context);
    for op in nested {
        if ops::is(&op, ops::MBARRIER_INIT) {
            lower.init(op);
            if op.operand(0).is_ok_and(|ring| bulk_rings.contains(&ring)) {
                lower.fence_init(op);
            }
        } else if ops::is(&op, ops::BULK_COPY) {
            lower.bulk_copy(op);
        } else if ops::is(&op, ops::MBARRIER_EXPECT_TX) {
            lower.expect_tx(op);
        } else if ops::is(&op, ops::MBARRIER_ARRIVE_COPIES) {
            lower.arrive(op);
        } else if ops::is(&op, ops::MBARRIER_WAIT) {
            lower.wait(op, sm);
        } else {
            continue;
        }
        apipe_passes::rewrite::erase_op(op);
    }
    Ok(())
}

/// Builders of steps 2-4.
struct Lower<'c> {
    context: &'c Context,
    index: Type<'c>,
    i32: Type<'c>,
    i64: Type<'c>,
    shared_pointer: Type<'c>,
}

impl<'c> Lower<'c> {
    fn new(context: &'c Context) -> Self {
        Lower {
            context,
            index: Type::index(context),
            i32: IntegerType::new(context, 32).into(),
            i64: IntegerType::new(context, 64).into(),
            shared_pointer: Type::parse(context, "!llvm.ptr<3>").expect("llvm is registered"),
        }
    }

    /// Inserts `op` before `anchor` and returns its first result, if any.
    fn before<'a>(
        &self,
        anchor: OperationRef<'c, 'a>,
        op: melior::ir::Operation<'c>,
    ) -> Option<Value<'c, 'a>> {
        let new = anchor.block().unwrap().insert_operation_before(anchor, op);
        new.result_at(0).map(Into::into)
    }

    fn simple(
        &self,
        name: &str,
        location: Location<'c>,
        operands: &[Value<'c, '_>],
        result: Type<'c>,
    ) -> melior::ir::Operation<'c> {
        OperationBuilder::new(name, location)
            .add_operands(operands)
            .add_results(&[result])
            .build()
            .unwrap_or_else(|_| panic!("valid {name}"))
    }

    fn constant<'a>(
        &self,
        anchor: OperationRef<'c, 'a>,
        ty: Type<'c>,
        value: i64,
    ) -> Value<'c, 'a> {
        let op = arith::constant(
            self.context,
            IntegerAttribute::new(ty, value).into(),
            anchor.location(),
        );
        self.before(anchor, op).unwrap()
    }

    /// The address `byte_offset` (an `index`, built by the closure after
    /// the pointer) bytes past the aligned pointer of `memref`, as an
    /// `i64`, before `anchor`.
    fn byte_address<'a>(
        &self,
        anchor: OperationRef<'c, 'a>,
        memref: Value<'c, 'a>,
        byte_offset: impl FnOnce() -> Value<'c, 'a>,
    ) -> Value<'c, 'a> {
        let location = anchor.location();
        let base = self
            .before(
                anchor,
                self.simple(
                    "memref.extract_aligned_pointer_as_index",
                    location,
                    &[memref],
                    self.index,
                ),
            )
            .unwrap();
        let address = self
            .before(anchor, arith::addi(base, byte_offset(), location))
            .unwrap();
        self.before(
            anchor,
            self.simple("arith.index_cast", location, &[address], self.i64),
        )
        .unwrap()
    }

    /// The shared-memory address of slot `slot` (an `index`, or the
    /// constant `fixed` when `slot` is `None`) of `ring`, as `!llvm.ptr<3>`.
    fn slot_pointer<'a>(
        &self,
        anchor: OperationRef<'c, 'a>,
        ring: Value<'c, 'a>,
        slot: Option<Value<'c, 'a>>,
        fixed: i64,
    ) -> Value<'c, 'a> {
        let location = anchor.location();
        let wide = self.byte_address(anchor, ring, || match slot {
            Some(slot) => {
                let eight = self.constant(anchor, self.index, 8);
                self.before(anchor, arith::muli(slot, eight, location))
                    .unwrap()
            }
            None => self.constant(anchor, self.index, 8 * fixed),
        });
        self.before(
            anchor,
            self.simple("llvm.inttoptr", location, &[wide], self.shared_pointer),
        )
        .unwrap()
    }

    /// Step 2.
    fn init(&self, op: OperationRef<'c, '_>) {
        let location = op.location();
        let ring = op.operand(0).unwrap();
        let slots = ring_slots(ring);
        let count = self
            .before(
                op,
                self.simple(
                    "arith.index_cast",
                    location,
                    &[op.operand(1).unwrap()],
                    self.i32,
                ),
            )
            .unwrap();
        let init = |anchor: OperationRef<'c, '_>, slot: Option<Value<'c, '_>>, fixed: i64| {
            let pointer = self.slot_pointer(anchor, ring, slot, fixed);
            let init = OperationBuilder::new("nvvm.mbarrier.init", location)
                .add_operands(&[pointer, count])
                .build()
                .expect("valid nvvm.mbarrier.init");
            self.before(anchor, init);
        };
        if slots <= UNROLLED_INIT_SLOTS {
            for slot in 0..slots {
                init(op, None, slot);
            }
            return;
        }
        // A larger ring: one init per iteration of an scf.for over the
        // slots (unrolled, a fuzzed ring of 29,055 slots kept LLVM's code
        // generation busy for minutes).
        let lower = self.constant(op, self.index, 0);
        let upper = self.constant(op, self.index, slots);
        let step = self.constant(op, self.index, 1);
        let body = Block::new(&[(self.index, location)]);
        let terminator = body.append_operation(scf::r#yield(&[], location));
        let slot: Value = body.argument(0).unwrap().into();
        let region = Region::new();
        region.append_block(body);
        self.before(op, scf::r#for(lower, upper, step, region, location));
        init(terminator, Some(slot), 0);
    }

    /// Step 3.
    fn arrive(&self, op: OperationRef<'c, '_>) {
        let pointer =
            self.slot_pointer(op, op.operand(0).unwrap(), Some(op.operand(1).unwrap()), 0);
        let arrive = OperationBuilder::new("nvvm.cp.async.mbarrier.arrive", op.location())
            .add_operands(&[pointer])
            .add_attributes(&[(
                Identifier::new(self.context, "noinc"),
                IntegerAttribute::new(IntegerType::new(self.context, 1).into(), 1).into(),
            )])
            .build()
            .expect("valid nvvm.cp.async.mbarrier.arrive");
        self.before(op, arrive);
    }

    /// Step 4.
    fn wait(&self, op: OperationRef<'c, '_>, sm: u32) {
        let location = op.location();
        let pointer =
            self.slot_pointer(op, op.operand(0).unwrap(), Some(op.operand(1).unwrap()), 0);
        let parity = self
            .before(
                op,
                self.simple("arith.extui", location, &[op.operand(2).unwrap()], self.i32),
            )
            .unwrap();
        let wait = if sm >= 90 {
            let hint = self.constant(op, self.i32, SUSPEND_TIME_HINT_NS);
            OperationBuilder::new("nvvm.mbarrier.try_wait.parity", location)
                .add_operands(&[pointer, parity, hint])
                .build()
                .expect("valid nvvm.mbarrier.try_wait.parity")
        } else {
            OperationBuilder::new("llvm.inline_asm", location)
                .add_operands(&[pointer, parity])
                .add_attributes(&[
                    (
                        Identifier::new(self.context, "asm_string"),
                        StringAttribute::new(self.context, TEST_WAIT_LOOP).into(),
                    ),
                    (
                        Identifier::new(self.context, "constraints"),
                        StringAttribute::new(self.context, "r,r,~{memory}").into(),
                    ),
                    (
                        Identifier::new(self.context, "has_side_effects"),
                        Attribute::unit(self.context),
                    ),
                ])
                .build()
                .expect("valid llvm.inline_asm")
        };
        self.before(op, wait);
    }
}
