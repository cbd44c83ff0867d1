//! Shared build script for every package whose binaries or tests link libtorch.
//!
//! tch's own rpath stops at the torch-sys crate; binaries built from other packages would
//! need a hand-set `LD_LIBRARY_PATH`. torch-sys (`links = "tch"`) exports the libtorch lib
//! folder it linked against as `DEP_TCH_LIBTORCH_LIB`; we bake it into our binaries' rpath.

fn main() {
    println!("cargo:rerun-if-env-changed=DEP_TCH_LIBTORCH_LIB");
    if let Ok(lib) = std::env::var("DEP_TCH_LIBTORCH_LIB") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{lib}");
    }
}
