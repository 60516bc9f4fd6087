//! Builds the apipe dialect from its ODS file, `apipe/ApipeOps.td`:
//!
//! 1. `mlir-tblgen` generates the C++ dialect, type and op declarations and
//!    definitions (`-gen-dialect-*`, `-gen-typedef-*`, `-gen-op-*`) and the
//!    dialect reference (`-gen-dialect-doc`) into `$OUT_DIR`;
//! 2. the `cc` crate compiles them, with the hand-written C++ (`cpp/`: the
//!    custom assembly of `apipe.copy`, registration; `capi/`: C API entry
//!    points the MLIR C API lacks: diagnostics with notes, a parse that
//!    survives upstream's error cleanup), against the installed MLIR headers, as
//!    `-std=c++17 -fno-rtti` like Debian's LLVM;
//! 3. the IRDL module for `mlir-opt --irdl-file=...` users is generated from
//!    the same ODS records, read with the `tblgen` crate. Upstream
//!    `tblgen-to-irdl` (LLVM 22) emits IRDL that does not load (type names
//!    `"!token"`, typed integer attributes, camelCase operand names), so:
//!    - emit `irdl.type` for every `TypeDef` of the dialect;
//!    - for every `Op` of the dialect, emit one constraint value per operand,
//!      result and required attribute (IRDL ties operands that share a value
//!      to the same type), then `irdl.operands`, `irdl.results` and
//!      `irdl.attributes`. Optional attributes are not declared: IRDL has no
//!      optional attributes and allows undeclared ones.
//!
//! The IRDL module and the reference go to `$OUT_DIR`; unit tests compare
//! them with the checked-in `apipe/apipe.irdl.mlir` and `docs/dialect.md`.

use std::{
    env,
    fmt::Write as _,
    fs,
    path::{Path, PathBuf},
    process::Command,
};
use tblgen::{record::Record, TableGenParser};

#[path = "../build-support/cpp_library.rs"]
mod cpp_library;

const TD_FILE: &str = "apipe/ApipeOps.td";

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let prefix = env::var("TABLEGEN_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    println!("cargo:rerun-if-changed={TD_FILE}");
    println!("cargo:rerun-if-env-changed=TABLEGEN_220_PREFIX");
    println!("cargo:rerun-if-env-changed=CXX");

    let keeper = TableGenParser::new()
        .add_include_directory(&format!("{prefix}/include"))
        .add_include_directory(manifest.to_str().unwrap())
        .add_source(&format!("include \"{TD_FILE}\""))
        .expect("ApipeOps.td source")
        .parse()
        .unwrap_or_else(|error| panic!("cannot parse {TD_FILE}: {error}"));

    let dialect = "apipe";
    let mut out = String::new();
    writeln!(
        out,
        "// Generated from dialects/{TD_FILE} by dialects/build.rs. Do not edit."
    )
    .unwrap();
    writeln!(
        out,
        "// Regenerate: APIPE_BLESS=1 cargo test -p apipe-dialect checked_in_irdl_is_current"
    )
    .unwrap();
    writeln!(out, "irdl.dialect @{dialect} {{").unwrap();

    // `TypeDef`s name their dialect in `dialect`, `Op`s in `opDialect`.
    let of_dialect = |record: &Record| {
        record
            .def_value("dialect")
            .or_else(|_| record.def_value("opDialect"))
            .ok()
            .and_then(|d| d.str_value("name").ok().map(str::to_owned))
            .as_deref()
            == Some(dialect)
    };

    let mut types: Vec<Record> = keeper
        .all_derived_definitions("TypeDef")
        .filter(of_dialect)
        .collect();
    types.sort_by_key(|t| t.id());
    for ty in &types {
        writeln!(out, "  irdl.type @{}", ty.str_value("mnemonic").unwrap()).unwrap();
    }

    let mut ops: Vec<Record> = keeper
        .all_derived_definitions("Op")
        .filter(of_dialect)
        .collect();
    ops.sort_by_key(|op| op.id());
    for op in ops {
        let name = op.str_value("opName").unwrap();
        writeln!(out, "  irdl.operation @{name} {{").unwrap();
        let mut next_value = 0usize;
        let mut operands = Vec::new();
        let mut attributes = Vec::new();
        let mut results = Vec::new();

        let arguments = op.dag_value("arguments").unwrap();
        for (arg_name, init) in arguments.args() {
            let arg_name = arg_name.unwrap_or_else(|| panic!("{name}: unnamed argument"));
            let def: Record = init
                .as_def()
                .unwrap_or_else(|_| panic!("{name}: argument {arg_name} is not a def"))
                .into();
            // `Arg<Constraint, "description", [MemRead]>` wraps the constraint.
            let def = if def.subclass_of("Arg") {
                def.def_value("constraint").unwrap()
            } else {
                def
            };
            if def.subclass_of("Attr") {
                if def.bit_value("isOptional").unwrap_or(false) || def.subclass_of("OptionalAttr") {
                    continue;
                }
                let value = emit_constraint(&mut out, &mut next_value, attribute_constraint(def));
                attributes.push(format!("\"{arg_name}\" = %{value}"));
            } else {
                let (variadicity, base) = type_variadicity(def);
                let value =
                    emit_constraint(&mut out, &mut next_value, type_constraint(base, dialect));
                operands.push(format!("{}: {variadicity}%{value}", lowercase(arg_name)));
            }
        }
        let result_dag = op.dag_value("results").unwrap();
        for (result_name, init) in result_dag.args() {
            let result_name = result_name.unwrap_or_else(|| panic!("{name}: unnamed result"));
            let def: Record = init.as_def().unwrap().into();
            let (variadicity, base) = type_variadicity(def);
            let value = emit_constraint(&mut out, &mut next_value, type_constraint(base, dialect));
            results.push(format!("{}: {variadicity}%{value}", lowercase(result_name)));
        }
        if !operands.is_empty() {
            writeln!(out, "    irdl.operands({})", operands.join(", ")).unwrap();
        }
        if !results.is_empty() {
            writeln!(out, "    irdl.results({})", results.join(", ")).unwrap();
        }
        if !attributes.is_empty() {
            writeln!(out, "    irdl.attributes {{{}}}", attributes.join(", ")).unwrap();
        }
        writeln!(out, "  }}").unwrap();
    }
    writeln!(out, "}}").unwrap();

    let out_dir = PathBuf::from(env::var("OUT_DIR").unwrap());
    fs::write(out_dir.join("apipe.irdl.mlir"), out).unwrap();

    generate_cpp(&prefix, &manifest, &out_dir);
    compile_cpp(&prefix, &manifest, &out_dir);
}

/// The `mlir-tblgen` generators and the files they write into `$OUT_DIR`.
const TBLGEN_OUTPUTS: &[(&str, &str)] = &[
    ("-gen-dialect-decls", "ApipeOpsDialect.h.inc"),
    ("-gen-dialect-defs", "ApipeOpsDialect.cpp.inc"),
    ("-gen-typedef-decls", "ApipeOpsTypes.h.inc"),
    ("-gen-typedef-defs", "ApipeOpsTypes.cpp.inc"),
    ("-gen-op-decls", "ApipeOps.h.inc"),
    ("-gen-op-defs", "ApipeOps.cpp.inc"),
    ("-gen-dialect-doc", "ApipeDialect.md"),
];

/// Step 1: runs `mlir-tblgen` for every output in [`TBLGEN_OUTPUTS`].
fn generate_cpp(prefix: &str, manifest: &Path, out_dir: &Path) {
    let tblgen = Path::new(prefix).join("bin/mlir-tblgen");
    for (generator, output) in TBLGEN_OUTPUTS {
        let status = Command::new(&tblgen)
            .arg(generator)
            .arg("--dialect=apipe")
            .arg("-I")
            .arg(format!("{prefix}/include"))
            .arg("-I")
            .arg(manifest)
            .arg(manifest.join(TD_FILE))
            .arg("-o")
            .arg(out_dir.join(output))
            .status()
            .unwrap_or_else(|error| panic!("cannot run {}: {error}", tblgen.display()));
        assert!(
            status.success(),
            "mlir-tblgen {generator} failed on {TD_FILE}"
        );
    }
}

/// Step 2: compiles the generated and the hand-written C++. It links against
/// the same MLIR libraries that `mlir-sys` links: static by default, or, under
/// `MLIR_SYS_LINK_SHARED=1`, as the shared library `libApipeDialectCpp.so`
/// over `libMLIR.so` (`build-support/cpp_library.rs` says why).
fn compile_cpp(prefix: &str, manifest: &Path, out_dir: &Path) {
    const SOURCES: &[&str] = &[
        "cpp/ApipeDialect.cpp",
        "cpp/ApipeBulkCopy.cpp",
        "capi/ApipeDiagnostics.cpp",
        "capi/ApipeEffects.cpp",
        "capi/ApipeExecutionEngine.cpp",
        "capi/ApipeOrder.cpp",
        "capi/ApipeDataLayout.cpp",
        "capi/ApipeFold.cpp",
    ];
    for path in SOURCES.iter().chain(&["cpp/ApipeDialect.h"]) {
        println!("cargo:rerun-if-changed={path}");
    }
    let include = manifest.join("../include");
    println!(
        "cargo:rerun-if-changed={}",
        include.join("apipe-c").display()
    );
    let mut build = cc::Build::new();
    // Prefer the clang of the same LLVM when it is installed.
    let clang = Path::new(prefix).join("bin/clang++");
    if clang.exists() && env::var_os("CXX").is_none() {
        build.compiler(&clang);
    }
    build
        .cpp(true)
        .files(SOURCES)
        .include(format!("{prefix}/include"))
        .include(out_dir)
        .include(manifest.join("cpp"))
        .include(include)
        .flag("-std=c++17")
        .flag("-fno-exceptions")
        .flag("-fno-rtti")
        .flag_if_supported("-Wno-unused-parameter")
        .define("_GNU_SOURCE", None);
    // The parser entry point throws out of MLIR's parser at its first error
    // (see the file's comment), so it alone is built with exceptions.
    println!("cargo:rerun-if-changed=capi/ApipeParser.cpp");
    let mut parser = cc::Build::new();
    if clang.exists() && env::var_os("CXX").is_none() {
        parser.compiler(&clang);
    }
    parser
        .cpp(true)
        .file("capi/ApipeParser.cpp")
        .include(format!("{prefix}/include"))
        .flag("-std=c++17")
        .flag("-fexceptions")
        .flag("-fno-rtti")
        .flag_if_supported("-Wno-unused-parameter")
        .define("_GNU_SOURCE", None);
    cpp_library::compile("ApipeDialectCpp", prefix, vec![build, parser]);
}

/// Writes `%N = <constraint>` and returns N.
fn emit_constraint(out: &mut String, next_value: &mut usize, constraint: String) -> usize {
    let value = *next_value;
    *next_value += 1;
    writeln!(out, "    %{value} = {constraint}").unwrap();
    value
}

/// `Variadic<T>` / `Optional<T>` / `T` -> (IRDL variadicity prefix, T).
fn type_variadicity(def: Record) -> (&'static str, Record) {
    if def.subclass_of("Variadic") {
        ("variadic ", def.def_value("baseType").unwrap())
    } else if def.subclass_of("Optional") {
        ("optional ", def.def_value("baseType").unwrap())
    } else {
        ("", def)
    }
}

/// The IRDL constraint of an ODS type constraint used by the dialect.
fn type_constraint(def: Record, dialect: &str) -> String {
    if def.subclass_of("TypeDef") {
        return format!(
            "irdl.base @{dialect}::@{}",
            def.str_value("mnemonic").unwrap()
        );
    }
    match def.name().unwrap() {
        "AnyMemRef" => "irdl.base \"!builtin.memref\"".into(),
        "Index" => "irdl.is index".into(),
        "I1" => "irdl.is i1".into(),
        "AnyType" => "irdl.any".into(),
        other => panic!("build.rs: no IRDL mapping for ODS type constraint `{other}`; add one"),
    }
}

/// The IRDL constraint of a required ODS attribute constraint.
fn attribute_constraint(def: Record) -> String {
    match def.name().unwrap() {
        "I64Attr" | "I32Attr" | "IndexAttr" => "irdl.base \"#builtin.integer\"".into(),
        "StrAttr" => "irdl.base \"#builtin.string\"".into(),
        other => {
            panic!("build.rs: no IRDL mapping for ODS attribute constraint `{other}`; add one")
        }
    }
}

/// IRDL wants lowercase operand and result names.
fn lowercase(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}
