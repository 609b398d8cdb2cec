use std::process::Command;

fn main() {
    napi_build::setup();
    // curve25519-dalek selects its AVX-512 IFMA backend only when compiled by a nightly rustc (it
    // checks the same way); `engine_version` reports which backend runs.
    println!("cargo::rustc-check-cfg=cfg(nightly_rustc)");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let version = Command::new(rustc).arg("--version").output();
    if let Ok(output) = version {
        if String::from_utf8_lossy(&output.stdout).contains("-nightly") {
            println!("cargo::rustc-cfg=nightly_rustc");
        }
    }
}
