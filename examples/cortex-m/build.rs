//! Puts `memory.x` where the linker finds it (cortex-m-rt's `link.x`
//! includes it) and relinks when it changes. With `LAYOUT_RAM_KIB=n` in the
//! environment the RAM (and so the stack, which is all of RAM but 12 bytes
//! of `.bss`) is cut to `n` KiB: `.ci/run` boots the firmware that way too,
//! so the stack the relayouts need stays measured.
use std::{env, fs, path::PathBuf};

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let memory = fs::read_to_string("memory.x").expect("read memory.x");
    let memory = match env::var("LAYOUT_RAM_KIB") {
        Ok(kib) => {
            let kib: u32 = kib.parse().expect("LAYOUT_RAM_KIB is a number of KiB");
            memory.replace("LENGTH = 64K", &format!("LENGTH = {kib}K"))
        }
        Err(_) => memory,
    };
    fs::write(out.join("memory.x"), memory).expect("write memory.x");
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rerun-if-changed=memory.x");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=LAYOUT_RAM_KIB");
}
