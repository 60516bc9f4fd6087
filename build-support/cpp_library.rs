//! Links the C++ of a crate (compiled by the `cc` crate against the
//! installed MLIR headers) into the library that the crate's Rust code calls.
//! Included by `dialects/build.rs` and `passes/build.rs`
//! (`#[path = "../build-support/cpp_library.rs"] mod cpp_library;`).
//!
//! 1. By default (the tools, which link MLIR's static archives), each build
//!    becomes a static archive inside the Rust crate, as `cc` makes it.
//! 2. Under `MLIR_SYS_LINK_SHARED=1` (the plugin and C API library,
//!    `scripts/build-plugin.sh`, over Debian's `libMLIR.so`), the objects of
//!    all builds are linked into one shared library, `lib<name>.so` in
//!    `$OUT_DIR`, over `libMLIR.so` and the MLIR C API library
//!    `libMLIR-C.so` in `$APIPE_MLIR_C_LIB_DIR` (Debian ships the C API
//!    only as archives; the script builds that library), and the crate links
//!    it dynamically. Its run path holds `$ORIGIN`: it is installed next to
//!    `libMLIR-C.so`.
//!
//! Why a shared library in 2: MLIR's headers define function-local statics
//! in inline functions that must be one object per process, and some are
//! compared by address: `SideEffects::Resource::Base<R>::get()` (is an
//! effect on `DefaultResource`?), `SideEffects::Effect::get<E>()`, the
//! cached `TypeIDResolver<T>::resolveTypeID()::id`. The C++ linker makes
//! them weak exported symbols so that the dynamic linker binds every copy to
//! the first one loaded (the one in `libMLIR.so`). Linked into a Rust
//! `cdylib` instead, they would be made local by rustc's version script
//! (which exports only the Rust entry points): the plugin would hold private
//! copies, and an effect that `memref.load` declares on `libMLIR.so`'s
//! `DefaultResource` would not be on the plugin's. A C++ shared library
//! keeps the usual C++ linkage, as MLIR's own plugins have it.

use std::{env, path::Path, process::Command};

/// Compiles `builds` (each with its own flags) into the library `name`
/// (step 1 or 2 above). `prefix` is the LLVM installation (`/usr/lib/llvm-22`).
pub fn compile(name: &str, prefix: &str, builds: Vec<cc::Build>) {
    println!("cargo:rerun-if-env-changed=MLIR_SYS_LINK_SHARED");
    println!("cargo:rerun-if-env-changed=APIPE_MLIR_C_LIB_DIR");
    if env::var_os("MLIR_SYS_LINK_SHARED").is_none() {
        for (index, build) in builds.into_iter().enumerate() {
            build.compile(&format!("{name}_{index}"));
        }
        return;
    }
    let out_dir = env::var("OUT_DIR").expect("OUT_DIR is set by cargo");
    let objects: Vec<_> = builds
        .into_iter()
        .flat_map(|mut build| build.pic(true).compile_intermediates())
        .collect();
    let library = Path::new(&out_dir).join(format!("lib{name}.so"));
    let lib_dir = Path::new(prefix).join("lib");
    let clang = Path::new(prefix).join("bin/clang++");
    let linker = if clang.exists() {
        clang.into_os_string()
    } else {
        env::var_os("CXX").unwrap_or_else(|| "c++".into())
    };
    let c_api_dir = env::var("APIPE_MLIR_C_LIB_DIR")
        .expect("MLIR_SYS_LINK_SHARED builds need APIPE_MLIR_C_LIB_DIR (scripts/build-plugin.sh)");
    let status = Command::new(&linker)
        .arg("-shared")
        .arg("-o")
        .arg(&library)
        .arg(format!("-Wl,-soname,lib{name}.so"))
        .args(&objects)
        .arg(format!("-L{c_api_dir}"))
        .arg(format!("-L{}", lib_dir.display()))
        .args(["-lMLIR-C", "-lMLIR", "-lLLVM"])
        .arg("-Wl,-rpath,$ORIGIN")
        .arg(format!("-Wl,-rpath,{}", lib_dir.display()))
        .arg("-Wl,--no-undefined")
        .status()
        .unwrap_or_else(|error| panic!("cannot run {}: {error}", linker.to_string_lossy()));
    assert!(status.success(), "linking {} failed", library.display());
    println!("cargo:rustc-link-search=native={out_dir}");
    println!("cargo:rustc-link-lib=dylib={name}");
}
