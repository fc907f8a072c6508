//! Temporary files that never outlive the process: removed when dropped,
//! renamed into place on success, and removed when SIGINT, SIGTERM or
//! SIGHUP stops the process.
//!
//! A [`Temp`] is created and registered under one lock, and renamed or
//! removed and unregistered under the same lock, so a signal never sees a
//! file that exists but is not registered. The first [`Temp`] installs the
//! handlers, with `signal-hook`'s safe API (no `unsafe` here): its
//! [`Signals`] iterator wakes a thread that starts another to remove every
//! registered file and end the process with status 128 + n
//! ([`crate::exit::signaled`]) for the first signal n, as shells expect.
//!
//! A second signal still ends the process at once, with 128 + its own
//! number, if the removal has not ended it within [`GRACE`] (a rename or
//! an unlink stuck on a hung network file system): after [`GRACE`] the
//! waking thread arms `signal_hook::flag::register_conditional_shutdown`
//! (a bare `_exit` in the handler) and answers a signal that came during
//! [`GRACE`] itself. Within [`GRACE`] a second signal lets the removal
//! finish, so that a double Ctrl-C leaves no temporary file either.
//!
//! Uses: [`crate::exit`].

use std::fs::{self, File, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Duration;

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use crate::exit;

/// The signals that remove the temporary files before the process ends.
pub const SIGNALS: [i32; 3] = [SIGHUP, SIGINT, SIGTERM];

/// How long a second signal lets the removal of the temporary files run
/// before it ends the process at once.
pub const GRACE: Duration = Duration::from_secs(1);

/// The temporary files that exist now.
static TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Whether the handlers are installed (or why not).
static INSTALLED: OnceLock<Result<(), io::ErrorKind>> = OnceLock::new();

fn temps() -> MutexGuard<'static, Vec<PathBuf>> {
    // The list stays consistent whatever panicked while holding it.
    TEMPS.lock().unwrap_or_else(PoisonError::into_inner)
}

fn forget(temps: &mut Vec<PathBuf>, path: &Path) -> bool {
    let before = temps.len();
    temps.retain(|p| p != path);
    temps.len() != before
}

/// Installs the signal handlers and the thread that removes the files,
/// once per process.
fn install() -> io::Result<()> {
    let result = INSTALLED.get_or_init(|| {
        let armed = Arc::new(AtomicBool::new(false));
        for sig in SIGNALS {
            signal_hook::flag::register_conditional_shutdown(
                sig,
                exit::signaled(sig),
                Arc::clone(&armed),
            )
            .map_err(|e| e.kind())?;
        }
        let mut signals = Signals::new(SIGNALS).map_err(|e| e.kind())?;
        std::thread::Builder::new()
            .name("layout-cleanup".into())
            .spawn(move || {
                let Some(sig) = signals.forever().next() else {
                    return;
                };
                let removing = std::thread::Builder::new()
                    .name("layout-remove".into())
                    .spawn(move || remove_all_and_exit(sig));
                if removing.is_err() {
                    // No thread to wait for: another signal ends the
                    // process at once, from now on.
                    armed.store(true, Ordering::SeqCst);
                    remove_all_and_exit(sig);
                }
                // The removal normally ends the process well within GRACE.
                std::thread::sleep(GRACE);
                // It is stuck: from now on another signal ends the process
                // at once, and so does one that came meanwhile.
                armed.store(true, Ordering::SeqCst);
                if let Some(second) = signals.pending().next() {
                    signal_hook::low_level::exit(exit::signaled(second));
                }
            })
            .map_err(|e| e.kind())?;
        Ok(())
    });
    result.map_err(io::Error::from)
}

/// Removes every registered file and ends the process with status 128 +
/// `sig`, holding the lock to the end: no file is created or renamed into
/// place after the removal.
fn remove_all_and_exit(sig: i32) -> ! {
    let temps = temps();
    for path in temps.iter() {
        // Nothing to do about a file that cannot be removed.
        let _ = fs::remove_file(path);
    }
    std::process::exit(exit::signaled(sig));
}

/// A name no other run picks: `prefix` then 16 hex digits.
fn random_name(prefix: &str) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    h.write_u32(std::process::id());
    if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(t.as_nanos());
    }
    format!("{prefix}{:016x}", h.finish())
}

/// A temporary file, removed unless [`Temp::persist`] renames it.
#[derive(Debug)]
pub struct Temp {
    path: PathBuf,
    file: File,
}

impl Temp {
    /// Creates a new file named `prefix` and random digits in `dir` (never
    /// following a link there: the name must not exist), with permission
    /// bits `mode` less the umask, and registers it for removal on a
    /// signal.
    pub fn create_in(dir: &Path, prefix: &str, mode: u32) -> io::Result<Temp> {
        install()?;
        let mut temps = temps();
        let mut tries = 0;
        loop {
            let path = dir.join(random_name(prefix));
            match OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(mode)
                .open(&path)
            {
                Ok(file) => {
                    temps.push(path.clone());
                    return Ok(Temp { path, file });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && tries < 100 => tries += 1,
                Err(e) => return Err(e),
            }
        }
    }

    /// The open file.
    pub fn file(&self) -> &File {
        &self.file
    }

    /// Where the file is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Renames the file to `to` (replacing what is there); on failure the
    /// file is removed.
    pub fn persist(self, to: &Path) -> io::Result<()> {
        let mut temps = temps();
        fs::rename(&self.path, to)?;
        forget(&mut temps, &self.path);
        Ok(())
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let mut temps = temps();
        if forget(&mut temps, &self.path) {
            // Nothing to do about a file that cannot be removed.
            let _ = fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_temp_is_removed_unless_persisted() {
        let dir = tempfile::tempdir().unwrap();
        let t = Temp::create_in(dir.path(), ".t-", 0o600).unwrap();
        let path = t.path().to_path_buf();
        assert!(path.exists());
        assert!(temps().contains(&path));
        drop(t);
        assert!(!path.exists());
        assert!(!temps().contains(&path));

        let t = Temp::create_in(dir.path(), ".t-", 0o600).unwrap();
        let path = t.path().to_path_buf();
        let to = dir.path().join("kept");
        t.persist(&to).unwrap();
        assert!(to.exists() && !path.exists());
        assert!(!temps().contains(&path));
    }

    #[test]
    fn names_differ() {
        assert_ne!(random_name("x"), random_name("x"));
        assert!(random_name(".p-").starts_with(".p-"));
    }
}
