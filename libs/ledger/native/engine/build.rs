fn main() {
    napi_build::setup();
    // curve25519-dalek selects its AVX-512 IFMA backend only when compiled by a nightly rustc, found
    // the same way (rustc_version); `engine_version` reports which backend runs.
    println!("cargo::rustc-check-cfg=cfg(nightly_rustc)");
    let nightly = rustc_version::version_meta()
        .map(|meta| meta.channel == rustc_version::Channel::Nightly)
        .unwrap_or(false);
    if nightly {
        println!("cargo::rustc-cfg=nightly_rustc");
    }
}
