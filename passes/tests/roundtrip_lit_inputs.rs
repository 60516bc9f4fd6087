//! The round-trip guarantee on every counting-form input in the repo (README, "The `apipe` dialect"): for each `.mlir` file under `test/` and
//! `examples/`, each `// -----` chunk that parses, verifies and has a
//! `wait_group` (and no token) goes through `counting_to_tokens` then
//! `tokens_to_counting{strict=true}`, and every count comes back unchanged.
//! Only waits whose token names no group on any path (no-ops) may vanish.

use apipe_dialect::{attributes, ops, verifier};
use apipe_passes::{
    counting_to_tokens::counting_to_tokens, group_distance::GroupDistance,
    tokens_to_counting::tokens_to_counting,
};
use melior::ir::{
    attribute::IntegerAttribute,
    operation::{OperationLike, OperationMutLike, OperationRefMut},
    r#type::IntegerType,
    Module, OperationRef,
};
use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

fn mlir_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            mlir_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "mlir") {
            out.push(path);
        }
    }
}

/// `tag -> (queue, pending)` of every `wait_group`.
fn wait_groups(root: OperationRef) -> BTreeMap<i64, (i64, i64)> {
    ops::nested_ops(&root)
        .iter()
        .filter(|op| ops::is(*op, ops::WAIT_GROUP))
        .map(|op| {
            (
                attributes::integer(op, "roundtrip_tag").unwrap(),
                (
                    attributes::queue(op),
                    attributes::integer(op, attributes::PENDING).unwrap(),
                ),
            )
        })
        .collect()
}

#[test]
fn counting_tokens_counting_gives_back_every_count_of_every_lit_input() {
    // Deeply nested inputs (test/Tools/opt-deep-nesting.mlir) need the stack
    // that apipe-opt gives the parser.
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(round_trip_every_input)
        .unwrap()
        .join()
        .unwrap();
}

fn round_trip_every_input() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut files = Vec::new();
    mlir_files(&repo.join("test"), &mut files);
    mlir_files(&repo.join("examples"), &mut files);
    files.sort();
    let context = apipe_dialect::create_context().unwrap();
    context.set_allow_unregistered_dialects(true);
    context.attach_diagnostic_handler(|_| true);
    let i64_type = IntegerType::new(&context, 64).into();
    let (mut converted, mut counts, mut vanished, mut refused) = (0, 0, 0, Vec::new());
    for file in &files {
        let text = String::from_utf8_lossy(&std::fs::read(file).unwrap()).into_owned();
        for (index, chunk) in text.split("\n// -----\n").enumerate() {
            if !chunk.contains("apipe.wait_group") {
                continue;
            }
            let Some(module) = Module::parse(&context, chunk) else {
                continue;
            };
            let root = module.as_operation();
            if !root.verify() || !verifier::verify(&root) {
                continue;
            }
            // Counting form only: no token anywhere (the custom syntax does
            // not spell `!apipe.token` on a commit, so look at the ops).
            let token_form = ops::nested_ops(&root).iter().any(|op| {
                (0..op.result_count()).any(|i| ops::is_token(op.result(i).unwrap()))
                    || (0..op.operand_count()).any(|i| ops::is_token(op.operand(i).unwrap()))
            });
            if token_form {
                continue;
            }
            for (tag, op) in ops::nested_ops(&root)
                .into_iter()
                .filter(|op| ops::is(op, ops::WAIT_GROUP))
                .enumerate()
            {
                // SAFETY: a live op; setting an attribute does not move it.
                let mut op = unsafe { OperationRefMut::from_raw(op.to_raw()) };
                op.set_attribute(
                    "roundtrip_tag",
                    IntegerAttribute::new(i64_type, tag as i64).into(),
                );
            }
            let before = wait_groups(root);
            let name = format!("{}#{index}", file.strip_prefix(repo).unwrap().display());
            if counting_to_tokens(root).is_err() {
                // Inputs that exist to be refused (located errors), calls
                // of functions that wait or commit, calls through a value
                // (the callee unknown), and commits in a
                // `memref.alloca_scope` (refused by design: the window of
                // tokens cannot follow them).
                refused.push((
                    name,
                    chunk.contains("call @")
                        || chunk.contains("call_indirect")
                        || chunk.contains("memref.alloca_scope"),
                ));
                continue;
            }
            assert!(root.verify(), "{name}: token form does not verify");
            let mut no_ops = Vec::new();
            for function in apipe_passes::group_distance::functions(&root) {
                let analysis = GroupDistance::compute(&function).unwrap();
                for op in ops::nested_ops(&function) {
                    // Waits of a nested function (a gpu.launch body) are
                    // that function's.
                    let own = apipe_passes::group_distance::enclosing_function(op)
                        .is_some_and(|f| f == function);
                    if own && ops::is(&op, ops::WAIT) {
                        let fact = analysis
                            .token_fact(&op, op.operand(0).unwrap())
                            .unwrap_or_else(|| panic!("{name}: no fact at {op}"));
                        if fact.groups.is_none() {
                            no_ops.push(attributes::integer(&op, "roundtrip_tag").unwrap());
                        }
                    }
                }
            }
            assert!(
                tokens_to_counting(root, true).is_ok(),
                "{name}: a count did not come back exact"
            );
            let after = wait_groups(root);
            let mut expected = before.clone();
            for tag in &no_ops {
                expected.remove(tag);
            }
            assert_eq!(after, expected, "{name}: counts changed");
            converted += 1;
            counts += after.len();
            vanished += no_ops.len();
        }
    }
    eprintln!(
        "round trip: {converted} inputs, {counts} counts unchanged, {vanished} no-op waits \
         (no group on any path) removed; refused as intended: {refused:?}"
    );
    assert!(
        converted >= 10,
        "only {converted} counting-form inputs found"
    );
    for (name, calls) in &refused {
        assert!(name.contains("invalid") || *calls, "{name}: refused");
    }
}
