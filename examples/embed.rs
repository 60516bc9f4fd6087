//! Embedding apipe in another Rust MLIR compiler.
//!
//! 1. create a melior `Context` with the apipe dialect registered;
//! 2. build a function with the generated op builders (`apipe_dialect::ops`):
//!    an async copy into workgroup memory, a token commit and a wait;
//! 3. run `apipe-make-sync` in our own `PassManager`, nested on `func.func`;
//! 4. print the result.
//!
//! `cargo test` runs it (`test = true` in `passes/Cargo.toml`);
//! `cargo run -p apipe-passes --example embed` prints the module.

use apipe_dialect::ops;
use apipe_passes::make_sync::create_make_sync_pass;
use melior::{
    dialect::{arith, func},
    ir::{
        attribute::{IntegerAttribute, StringAttribute, TypeAttribute},
        operation::OperationLike,
        r#type::{FunctionType, MemRefType},
        Block, BlockLike, Location, Module, Region, RegionLike, Type,
    },
    pass::PassManager,
    Context,
};

/// Builds, verifies, transforms and prints the module; returns the text.
fn embed() -> String {
    // 1.
    let context: Context = apipe_dialect::create_context().expect("apipe dialect loads");
    let location = Location::unknown(&context);
    let index = Type::index(&context);
    let f32_type = Type::float32(&context);
    let global = MemRefType::new(f32_type, &[64], None, None);
    let i64_type = Type::parse(&context, "i64").unwrap();
    // Memory space 3: GPU workgroup (shared) memory.
    let workgroup = MemRefType::new(
        f32_type,
        &[4],
        None,
        Some(IntegerAttribute::new(i64_type, 3).into()),
    );

    // 2.
    let module = Module::new(location);
    let body = Block::new(&[
        (global.into(), location),
        (workgroup.into(), location),
        (index, location),
    ]);
    let zero = body
        .append_operation(arith::constant(
            &context,
            IntegerAttribute::new(index, 0).into(),
            location,
        ))
        .result(0)
        .unwrap();
    let indices = [body.argument(2).unwrap().into(), zero.into()];
    let copy = ops::CopyOperation::builder(&context, location)
        .src(body.argument(0).unwrap().into())
        .dst(body.argument(1).unwrap().into())
        .indices(&indices)
        .elements(IntegerAttribute::new(i64_type, 4))
        .build();
    body.append_operation(copy.into());
    let token_type = Type::parse(&context, ops::TOKEN_TYPE).unwrap();
    let commit = body.append_operation(
        ops::CommitGroupOperation::builder(&context, location)
            .token(token_type)
            .build()
            .into(),
    );
    let token = commit.result(0).unwrap();
    body.append_operation(ops::wait(&context, &[token.into()], location).into());
    body.append_operation(func::r#return(&[], location));
    let region = Region::new();
    region.append_block(body);
    let function_type = FunctionType::new(&context, &[global.into(), workgroup.into(), index], &[]);
    module.body().append_operation(func::func(
        &context,
        StringAttribute::new(&context, "load_tile"),
        TypeAttribute::new(function_type.into()),
        region,
        &[],
        location,
    ));
    let mut module = module;
    assert!(module.as_operation().verify(), "{}", module.as_operation());
    assert!(apipe_dialect::verifier::verify(&module.as_operation()));
    let before = module.as_operation().to_string();

    // 3.
    let manager = PassManager::new(&context);
    manager
        .nested_under("func.func")
        .add_pass(create_make_sync_pass());
    manager.run(&mut module).expect("apipe-make-sync succeeds");

    // 4.
    let after = module.as_operation().to_string();
    println!("// before\n{before}\n// after apipe-make-sync\n{after}");
    after
}

fn main() {
    embed();
}

#[test]
fn embed_runs_make_sync() {
    let after = embed();
    assert!(!after.contains("apipe."), "{after}");
    assert!(after.contains("memref.load"), "{after}");
    assert!(after.contains("memref.store"), "{after}");
}
