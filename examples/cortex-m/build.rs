//! Writes `memory.x` (cortex-m-rt's `link.x` includes it) from
//! `lm3s6965.x` where the linker finds it, and relinks when it changes.
//! (A `memory.x` in this directory would be found first, whatever the
//! search path says.) With `LAYOUT_RAM_KIB=n` in the
//! environment the RAM (and so the stack, which is all of RAM but 12 bytes
//! of `.bss`) is cut to `n` KiB: `.ci/run` boots the firmware that way too,
//! so the stack the relayouts need stays measured. The firmware prints the
//! size it was linked for.
use std::{env, fs, path::PathBuf};

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let memory = fs::read_to_string("lm3s6965.x").expect("read lm3s6965.x");
    let kib: u32 = match env::var("LAYOUT_RAM_KIB") {
        Ok(kib) => kib.parse().expect("LAYOUT_RAM_KIB is a number of KiB"),
        Err(_) => 64,
    };
    let memory = memory.replace("LENGTH = 64K", &format!("LENGTH = {kib}K"));
    // One directory per size, and the size in the firmware's environment:
    // a new size relinks (the same directory and flags would not).
    let dir = out.join(format!("ram-{kib}"));
    fs::create_dir_all(&dir).expect("create the memory.x directory");
    fs::write(dir.join("memory.x"), memory).expect("write memory.x");
    println!("cargo:rustc-link-search={}", dir.display());
    println!("cargo:rustc-env=LAYOUT_RAM_KIB={kib}");
    println!("cargo:rerun-if-changed=lm3s6965.x");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=LAYOUT_RAM_KIB");
}
