//! The parts of `apipe-to-emulation` ([`crate::to_emulation`]) beyond the
//! apipe ops themselves:
//! - [`kernels`]: `gpu.module` kernels become host functions that the
//!   runtime runs once per GPU thread, and `gpu.launch_func` a runtime call;
//! - [`checks`]: run-time checks (`cf.assert`, e.g. from MLIR's
//!   `generate-runtime-verification`; `scf.for` steps; vector access
//!   bounds) become calls that stop the program with a located error;
//! - [`hooks`]: the race checker's hooks before workgroup-memory accesses
//!   and global writes in kernels, and before writes of host code;
//! - [`mbarrier`]: the ops of the mbarrier form become runtime calls with
//!   the address of their slot;
//! - [`realloc`]: `memref.realloc` becomes alloc, copy and dealloc
//!   (before the upstream passes of `apipe-run`);
//! - [`stack`]: `memref.alloca_scope` becomes its body between a stack
//!   save and restore, so that `scf` ops in it can be lowered; a copy
//!   still pending into released stack memory (a scope's end, a return)
//!   is an error.
//!
//! [`Emitter`] holds what they share: the op-id table (locations and check
//! messages, read by the runtime) and the runtime function declarations.

pub mod checks;
pub mod hooks;
pub mod kernels;
pub mod lanes;
pub mod mbarrier;
pub mod realloc;
pub mod stack;

use apipe_dialect::ops::Checked as _;
use melior::ir::r#type::ShapedTypeLike as _;
use melior::{
    dialect::{arith, func, scf},
    ir::{
        attribute::{FlatSymbolRefAttribute, IntegerAttribute, StringAttribute, TypeAttribute},
        operation::{OperationBuilder, OperationLike},
        r#type::{FunctionType, IntegerType, MemRefType},
        Attribute, Block, BlockLike, BlockRef, Identifier, Location, OperationRef, Region,
        RegionLike, Type, TypeLike, Value, ValueLike,
    },
    Context,
};
use std::collections::HashSet;

/// What the lowering steps share: the id table and the declarations.
pub struct Emitter<'c, 'a> {
    /// The context.
    pub context: &'c Context,
    /// The body of the root module (declarations go at its start).
    pub body: BlockRef<'c, 'a>,
    declared: HashSet<String>,
    /// `locations[id]`: the `file:line:col` of the op with that id.
    pub locations: Vec<String>,
    /// `checks[id]`: the message of a run-time check with that id (empty
    /// for other ops).
    pub checks: Vec<String>,
    /// `names[id]`: the name of the op a race checker's hook stands for
    /// (empty for other ids).
    pub names: Vec<String>,
}

impl<'c, 'a> Emitter<'c, 'a> {
    /// An emitter for the module whose body is `body`.
    pub fn new(context: &'c Context, body: BlockRef<'c, 'a>) -> Self {
        Self {
            context,
            body,
            declared: HashSet::new(),
            locations: Vec::new(),
            checks: Vec::new(),
            names: Vec::new(),
        }
    }

    /// A new op id at `location`, with a check message (or "").
    pub fn id(&mut self, location: Location<'c>, message: &str) -> i64 {
        self.locations.push(
            apipe_dialect::location::file_line_col(location)
                .map_or_else(|| "<unknown>:0:0".to_owned(), |p| p.to_string()),
        );
        self.checks.push(message.to_owned());
        self.names.push(String::new());
        self.locations.len() as i64 - 1
    }

    /// Records that id `id` stands for an op named `name`.
    pub fn name(&mut self, id: i64, name: &str) {
        if let Some(slot) = usize::try_from(id).ok().and_then(|i| self.names.get_mut(i)) {
            *slot = name.to_owned();
        }
    }

    /// `i64`.
    pub fn i64_type(&self) -> Type<'c> {
        IntegerType::new(self.context, 64).into()
    }

    /// `index`.
    pub fn index_type(&self) -> Type<'c> {
        Type::index(self.context)
    }

    /// Inserts `operation` before `op` and returns it.
    pub fn before(
        &self,
        op: OperationRef<'c, 'a>,
        operation: melior::ir::Operation<'c>,
    ) -> OperationRef<'c, 'a> {
        op.block()
            .expect("an op in a block")
            .insert_operation_before(op, operation)
    }

    /// An integer constant of type `ty` inserted before `op`.
    pub fn constant(&self, op: OperationRef<'c, 'a>, ty: Type<'c>, value: i64) -> Value<'c, 'a> {
        let location = op.location();
        self.before(
            op,
            arith::constant(
                self.context,
                IntegerAttribute::new(ty, value).into(),
                location,
            ),
        )
        .result(0)
        .unwrap()
        .into()
    }

    /// `value` (index or an integer of at most 64 bits) as an `i64`,
    /// inserted before `op`.
    pub fn to_i64(&self, op: OperationRef<'c, 'a>, value: Value<'c, 'a>) -> Value<'c, 'a> {
        let ty = value.r#type();
        let location = op.location();
        let i64_type = self.i64_type();
        if ty == i64_type {
            return value;
        }
        let operation = if ty.is_index() {
            arith::index_cast(value, i64_type, location)
        } else {
            arith::extui(value, i64_type, location)
        };
        self.before(op, operation).result(0).unwrap().into()
    }

    /// `value` (an integer of at most 64 bits) sign-extended to an `i64`,
    /// inserted before `op`.
    pub fn to_i64_signed(&self, op: OperationRef<'c, 'a>, value: Value<'c, 'a>) -> Value<'c, 'a> {
        let i64_type = self.i64_type();
        if value.r#type() == i64_type {
            return value;
        }
        let operation = arith::extsi(value, i64_type, op.location());
        self.before(op, operation).result(0).unwrap().into()
    }

    /// Declares `name` (once) as a private function of `inputs` to
    /// `results`; with `c_interface`, memref arguments pass through MLIR's C
    /// interface (a pointer to the descriptor, `_mlir_ciface_<name>`).
    pub fn declare(
        &mut self,
        name: &str,
        inputs: &[Type<'c>],
        results: &[Type<'c>],
        c_interface: bool,
    ) {
        if !self.declared.insert(name.to_owned()) {
            return;
        }
        let location = Location::unknown(self.context);
        let function_type = FunctionType::new(self.context, inputs, results);
        let mut attributes = vec![(
            Identifier::new(self.context, "sym_visibility"),
            StringAttribute::new(self.context, "private").into(),
        )];
        if c_interface {
            attributes.push((
                Identifier::new(self.context, "llvm.emit_c_interface"),
                Attribute::unit(self.context),
            ));
        }
        let declaration = func::func(
            self.context,
            StringAttribute::new(self.context, name),
            TypeAttribute::new(function_type.into()),
            Region::new(),
            &attributes,
            location,
        );
        self.body.insert_operation(0, declaration);
    }

    /// A `func.call @name(arguments) -> results` before `op`, declaring
    /// `name` from the argument types.
    pub fn call(
        &mut self,
        op: OperationRef<'c, 'a>,
        name: &str,
        arguments: &[Value<'c, 'a>],
        results: &[Type<'c>],
    ) -> OperationRef<'c, 'a> {
        let inputs: Vec<Type> = arguments.iter().map(|a| a.r#type()).collect();
        self.declare(name, &inputs, results, false);
        let call = self.call_operation(name, arguments, results, op.location());
        self.before(op, call)
    }

    /// A detached `func.call` (the callee must be declared).
    pub fn call_operation(
        &self,
        name: &str,
        arguments: &[Value<'c, 'a>],
        results: &[Type<'c>],
        location: Location<'c>,
    ) -> melior::ir::Operation<'c> {
        func::call(
            self.context,
            FlatSymbolRefAttribute::new(self.context, name),
            arguments,
            results,
            location,
        )
    }

    /// `scf.if %condition { func.call @name(arguments) }` before `op`: a
    /// call to a runtime function that stops the program when `condition`
    /// holds.
    pub fn call_if(
        &mut self,
        op: OperationRef<'c, 'a>,
        condition: Value<'c, 'a>,
        name: &str,
        arguments: &[Value<'c, 'a>],
    ) {
        self.call_if_with(op, condition, name, arguments, false);
    }

    /// [`Self::call_if`], declaring `name` with `c_interface` as in
    /// [`Self::declare`].
    pub fn call_if_with(
        &mut self,
        op: OperationRef<'c, 'a>,
        condition: Value<'c, 'a>,
        name: &str,
        arguments: &[Value<'c, 'a>],
        c_interface: bool,
    ) {
        let location = op.location();
        let inputs: Vec<Type> = arguments.iter().map(|a| a.r#type()).collect();
        self.declare(name, &inputs, &[], c_interface);
        let then_block = Block::new(&[]);
        then_block.append_operation(self.call_operation(name, arguments, &[], location));
        then_block.append_operation(scf::r#yield(&[], location));
        let then_region = Region::new();
        then_region.append_block(then_block);
        self.before(
            op,
            scf::r#if(condition, &[], then_region, Region::new(), location),
        );
    }

    /// Whether a host copy is in flight, as an `i1` computed before `op`:
    /// the runtime's count
    /// ([`crate::emulation_runtime::copy_sources::HOST_WATCH_GLOBAL`],
    /// declared once as an external `memref.global` of type `memref<i64>`)
    /// is not 0.
    pub fn host_watching(&mut self, op: OperationRef<'c, 'a>) -> Value<'c, 'a> {
        use crate::emulation_runtime::copy_sources::HOST_WATCH_GLOBAL;
        let ty: Type = MemRefType::new(self.i64_type(), &[], None, None).into();
        if self.declared.insert(HOST_WATCH_GLOBAL.to_owned()) {
            let context = self.context;
            let global = OperationBuilder::new("memref.global", Location::unknown(context))
                .add_attributes(&[
                    (
                        Identifier::new(context, "sym_name"),
                        StringAttribute::new(context, HOST_WATCH_GLOBAL).into(),
                    ),
                    (
                        Identifier::new(context, "type"),
                        TypeAttribute::new(ty).into(),
                    ),
                ])
                .build()
                .expect("valid memref.global");
            self.body.insert_operation(0, global);
        }
        let location = op.location();
        let memref: Value = self
            .before(
                op,
                OperationBuilder::new("memref.get_global", location)
                    .add_attributes(&[(
                        Identifier::new(self.context, "name"),
                        FlatSymbolRefAttribute::new(self.context, HOST_WATCH_GLOBAL).into(),
                    )])
                    .add_results(&[ty])
                    .build()
                    .expect("valid memref.get_global"),
            )
            .result(0)
            .unwrap()
            .into();
        let count: Value = self
            .before(
                op,
                OperationBuilder::new("memref.load", location)
                    .add_operands(&[memref])
                    .add_results(&[self.i64_type()])
                    .build()
                    .expect("valid memref.load"),
            )
            .result(0)
            .unwrap()
            .into();
        let zero = self.constant(op, self.i64_type(), 0);
        self.before(
            op,
            arith::cmpi(
                self.context,
                arith::CmpiPredicate::Ne,
                count,
                zero,
                location,
            ),
        )
        .result(0)
        .unwrap()
        .into()
    }

    /// `memref.extract_aligned_pointer_as_index` and
    /// `memref.extract_strided_metadata` of `memref` before `op`: (aligned
    /// pointer, offset, sizes, strides), all `index`.
    #[allow(clippy::type_complexity)]
    pub fn metadata(
        &self,
        op: OperationRef<'c, 'a>,
        memref: Value<'c, 'a>,
    ) -> (
        Value<'c, 'a>,
        Value<'c, 'a>,
        Vec<Value<'c, 'a>>,
        Vec<Value<'c, 'a>>,
    ) {
        let ty = MemRefType::try_from(memref.r#type()).expect("a ranked memref");
        let rank = melior::ir::r#type::ShapedTypeLike::rank(&ty);
        let index = self.index_type();
        let location = op.location();
        let pointer = self
            .before(
                op,
                OperationBuilder::new("memref.extract_aligned_pointer_as_index", location)
                    .add_operands(&[memref])
                    .add_results(&[index])
                    .build()
                    .expect("valid memref.extract_aligned_pointer_as_index"),
            )
            .result(0)
            .unwrap()
            .into();
        let base = MemRefType::new(ty.element(), &[], None, ty.memory_space());
        let mut results = vec![base.into(), index];
        results.extend(std::iter::repeat_n(index, 2 * rank));
        let metadata = self.before(
            op,
            OperationBuilder::new("memref.extract_strided_metadata", location)
                .add_operands(&[memref])
                .add_results(&results)
                .build()
                .expect("valid memref.extract_strided_metadata"),
        );
        let value = |i: usize| -> Value<'c, 'a> { metadata.result(i).unwrap().into() };
        (
            pointer,
            value(1),
            (0..rank).map(|d| value(2 + d)).collect(),
            (0..rank).map(|d| value(2 + rank + d)).collect(),
        )
    }
}

/// The size of an element of type `ty` in memory, as the LLVM lowering lays
/// it out (its allocation size on x86-64): `index` is 64 bits; an integer
/// or float of `b` bits takes `ceil(b / 8)` bytes rounded up to a power of
/// two (an `i4` or `i1` element takes a byte of its own, unpacked); a
/// vector packs its elements, needs a whole number of bytes (`None`
/// otherwise, and for other types) and takes its size under MLIR's data
/// layout, padded as LLVM allocates it (`vector<3xf32>`: 16 bytes); a
/// `complex<T>` is the struct `{T, T}` of the LLVM lowering, twice `T`'s
/// size (`complex<f32>`: 8 bytes; it was refused as "no whole number of
/// bytes", trial 35).
pub fn element_bytes(ty: Type) -> Option<i64> {
    use mlir_sys::{
        mlirComplexTypeGetElementType, mlirShapedTypeGetDimSize, mlirShapedTypeGetElementType,
        mlirShapedTypeGetRank, mlirTypeIsAComplex, mlirTypeIsAVector,
    };
    // SAFETY: each accessor is called on the type kind it is defined for.
    unsafe {
        if mlirTypeIsAComplex(ty.to_raw()) {
            let element = Type::from_raw(mlirComplexTypeGetElementType(ty.to_raw()));
            return element_bytes(element)?.checked_mul(2);
        }
        if mlirTypeIsAVector(ty.to_raw()) {
            let element = Type::from_raw(mlirShapedTypeGetElementType(ty.to_raw()));
            let count: i64 = (0..mlirShapedTypeGetRank(ty.to_raw()))
                .map(|d| mlirShapedTypeGetDimSize(ty.to_raw(), d as isize))
                .product();
            let bits = i64::from(scalar_bits(element)?).checked_mul(count)?;
            if bits <= 0 || bits % 8 != 0 {
                return None;
            }
            // Its size in memory, as LLVM allocates it (MLIR's data layout:
            // a `vector<3xf32>` takes 16 bytes, not 12; a copy of such
            // elements moved 12 bytes each, and printed other values than
            // the synchronous program).
            let none: Option<&melior::ir::OperationRef> = None;
            return apipe_dialect::layout::type_size_in_bytes(ty, none);
        }
    }
    let bits = scalar_bits(ty)?;
    (bits > 0).then(|| i64::from(bits.div_ceil(8).next_power_of_two()))
}

/// The width in bits of an `index`, integer or float type.
fn scalar_bits(ty: Type) -> Option<u32> {
    use mlir_sys::{mlirFloatTypeGetWidth, mlirIntegerTypeGetWidth, mlirTypeIsAFloat};
    // SAFETY: each accessor is called on the type kind it is defined for.
    unsafe {
        if ty.is_index() {
            Some(64)
        } else if ty.is_integer() {
            Some(mlirIntegerTypeGetWidth(ty.to_raw()))
        } else if mlirTypeIsAFloat(ty.to_raw()) {
            Some(mlirFloatTypeGetWidth(ty.to_raw()))
        } else {
            None
        }
    }
}

/// The name of `op` in the emulator's messages: `memref.realloc` for the
/// ops a realloc became ([`realloc`]), else its own.
pub fn op_name<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> &'c str {
    if op.attribute(realloc::REALLOC).is_ok() {
        "memref.realloc"
    } else {
        apipe_dialect::ops::name(op)
    }
}

/// The GPU memory space of a memref type: its address space number (0
/// for none; `#gpu.address_space<global|workgroup|private>` are 1, 3, 5).
pub fn address_space(ty: Type) -> Option<u32> {
    let memref = MemRefType::try_from(ty).ok()?;
    let Some(space) = memref.memory_space() else {
        return Some(0);
    };
    if let Ok(integer) = IntegerAttribute::try_from(space) {
        return Some(integer.value() as u32);
    }
    let text = space.to_string();
    [("global", 1), ("workgroup", 3), ("private", 5)]
        .iter()
        .find(|(name, _)| text == format!("#gpu.address_space<{name}>"))
        .map(|(_, n)| *n)
}

/// The workgroup (shared) memory space.
pub const WORKGROUP: u32 = 3;
/// The private memory space.
pub const PRIVATE: u32 = 5;

/// The first operation of `region`'s entry block.
pub fn entry_block<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<BlockRef<'c, 'a>> {
    op.region_at(0)?.first_block()
}
