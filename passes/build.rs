//! Compiles `cpp/RustPass.cpp`, the C++ pass class through which MLIR's
//! pass registry creates and runs the Rust passes (see `src/pass.rs`),
//! against the installed MLIR headers (`-std=c++17 -fno-rtti`, as Debian's
//! LLVM is built). It links against the MLIR that `mlir-sys` links: static
//! by default, or as the shared library `libApipePassesCpp.so` over
//! `libMLIR.so` under `MLIR_SYS_LINK_SHARED=1` (see
//! `build-support/cpp_library.rs`).

use std::{env, path::Path};

#[path = "../build-support/cpp_library.rs"]
mod cpp_library;

fn main() {
    let prefix = env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    println!("cargo:rerun-if-env-changed=CXX");
    for path in ["cpp/RustPass.cpp", "cpp/RustPass.h"] {
        println!("cargo:rerun-if-changed={path}");
    }
    let mut build = cc::Build::new();
    let clang = Path::new(&prefix).join("bin/clang++");
    if clang.exists() && env::var_os("CXX").is_none() {
        build.compiler(clang);
    }
    build
        .cpp(true)
        .file("cpp/RustPass.cpp")
        .include(format!("{prefix}/include"))
        .include("cpp")
        .flag("-std=c++17")
        .flag("-fno-exceptions")
        .flag("-fno-rtti")
        .flag_if_supported("-Wno-unused-parameter");
    cpp_library::compile("ApipePassesCpp", &prefix, vec![build]);
}
