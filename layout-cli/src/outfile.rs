//! Writing a file the user named (`layout relayout`'s OUTPUT, `layout
//! draw --svg`) without damaging what is there.
//!
//! [`Destination::open`] looks at the path once, before any input is read,
//! and picks how it is written:
//!
//! - `-`: standard output, as a stream.
//! - A FIFO, a character or block device (`/dev/null`, `/dev/full`, a
//!   terminal): opened and written in place as a stream, never replaced,
//!   never truncated.
//! - A new name, or a regular file with one link whose owner can be kept:
//!   replaced atomically. The data goes to a temporary file (a
//!   [`cleanup::Temp`], removed on failure and on SIGINT, SIGTERM and
//!   SIGHUP) beside the file, which is renamed over it once everything is
//!   written and synced. The new file gets the old one's permission bits
//!   and owner (a new name gets `0666` less the umask, as `File::create`
//!   does). A failed run leaves the old file as it was.
//! - A regular file whose atomic replacement is impossible or would change
//!   its identity: a hard-linked file (more than one link; renaming would
//!   split it from its other names), a file whose owner or group this user
//!   cannot give the new file, and a writable file in a directory this
//!   user cannot write: written in place, as `cp` and shell redirection
//!   do. The file is truncated only once the input has been read and
//!   checked; an interrupted or failed write can leave it partial.
//! - A symlink is resolved once (each link in turn, up to 40), and the
//!   file it names is handled as above: the temporary file is created
//!   beside the resolved target, in its directory with every link
//!   resolved, and never through a link again (created with `O_EXCL`,
//!   renamed over the resolved name). As Linux's `protected_symlinks`
//!   does, a link in a sticky world-writable directory (`/tmp`) is not
//!   followed unless it belongs to this user or to the directory's owner.
//! - A directory: refused.
//!
//! Errors carry no temporary path: callers name the user's path.
//! Extended attributes and ACLs of a replaced file are not kept.
//!
//! Uses: [`crate::cleanup`].

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::cleanup::Temp;

/// Links followed before giving up, as Linux's `MAXSYMLINKS`.
const MAX_LINKS: usize = 40;

/// Bytes buffered between the producer and the file.
const BUFFER: usize = 1 << 16;

/// How a [`Destination`] is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Standard output.
    Stdout,
    /// A FIFO or device, written as a stream.
    Stream,
    /// A regular file written in place (truncated first).
    InPlace,
    /// A temporary file renamed over the target.
    Replace,
}

enum Kind {
    Stdout,
    Stream(File),
    InPlace(File),
    Replace { temp: Temp, target: PathBuf },
}

/// An output opened (or its temporary file created) and not yet written.
pub struct Destination {
    kind: Kind,
}

impl Destination {
    /// Looks at `path` and opens it as the module documentation says;
    /// `prefix` starts the temporary file's name (`.layout-relayout-`).
    /// Nothing is truncated or replaced yet.
    pub fn open(path: &Path, prefix: &str) -> io::Result<Destination> {
        if path == Path::new("-") {
            return Ok(Destination { kind: Kind::Stdout });
        }
        let (target, meta) = resolve(path)?;
        let dir = target.parent().unwrap_or(Path::new("."));
        let kind = match meta {
            None => Kind::Replace {
                temp: Temp::create_in(dir, prefix, 0o666)?,
                target,
            },
            Some(m) if m.is_dir() => return Err(io::Error::from(io::ErrorKind::IsADirectory)),
            Some(m) if m.is_file() => match replacement(dir, prefix, &m)? {
                Some(temp) => Kind::Replace { temp, target },
                None => Kind::InPlace(OpenOptions::new().write(true).open(&target)?),
            },
            Some(m) => {
                let t = m.file_type();
                if !(t.is_fifo() || t.is_char_device() || t.is_block_device()) {
                    // A socket: nothing to open.
                    return Err(io::Error::other("it is not a file, a FIFO or a device"));
                }
                Kind::Stream(OpenOptions::new().write(true).open(&target)?)
            }
        };
        Ok(Destination { kind })
    }

    /// How this destination is written.
    pub fn mode(&self) -> Mode {
        match self.kind {
            Kind::Stdout => Mode::Stdout,
            Kind::Stream(_) => Mode::Stream,
            Kind::InPlace(_) => Mode::InPlace,
            Kind::Replace { .. } => Mode::Replace,
        }
    }

    /// `true` for a stream (stdout, a FIFO, a device): one whose reader
    /// may go away, which is not an error.
    pub fn is_stream(&self) -> bool {
        matches!(self.mode(), Mode::Stdout | Mode::Stream)
    }

    /// The bytes a file destination can take: its file system's space
    /// free to this user, plus, for a file written in place, the file's
    /// own length (truncated before writing). `None` for streams, and
    /// where the file system does not say.
    pub fn room(&self) -> Option<u64> {
        let (file, own) = match &self.kind {
            Kind::Stdout | Kind::Stream(_) => return None,
            Kind::InPlace(f) => (f, f.metadata().ok()?.len()),
            Kind::Replace { temp, .. } => (temp.file(), 0),
        };
        let st = rustix::fs::fstatvfs(file).ok()?;
        let free = st.f_bavail.checked_mul(st.f_frsize)?;
        Some(free.saturating_add(own))
    }

    /// Writes everything `produce` writes, then finishes: flushes a
    /// stream, syncs a file written in place, or syncs and renames the
    /// temporary file. On an error the temporary file is removed (the
    /// old file untouched); a file written in place may be partial.
    pub fn write<E: From<io::Error>>(
        self,
        produce: impl FnOnce(&mut dyn Write) -> Result<(), E>,
    ) -> Result<(), E> {
        match self.kind {
            Kind::Stdout => {
                let mut w = BufWriter::with_capacity(BUFFER, io::stdout().lock());
                produce(&mut w)?;
                w.flush()?;
            }
            Kind::Stream(file) => {
                let mut w = BufWriter::with_capacity(BUFFER, &file);
                produce(&mut w)?;
                w.flush()?;
            }
            Kind::InPlace(file) => {
                file.set_len(0)?;
                let mut w = BufWriter::with_capacity(BUFFER, &file);
                produce(&mut w)?;
                w.flush()?;
                drop(w);
                file.sync_all()?;
            }
            Kind::Replace { temp, target } => {
                let mut w = BufWriter::with_capacity(BUFFER, temp.file());
                produce(&mut w)?;
                w.flush()?;
                drop(w);
                temp.file().sync_all()?;
                temp.persist(&target)?;
            }
        }
        Ok(())
    }
}

/// The directory part of `path` (`.` for a bare name).
fn parent(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// Follows `path`'s links: the name of the file they lead to, in a
/// directory with every link resolved, and its metadata (`None`: it does
/// not exist yet).
fn resolve(path: &Path) -> io::Result<(PathBuf, Option<Metadata>)> {
    let mut cur = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        let meta = match fs::symlink_metadata(&cur) {
            Ok(m) => Some(m),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(e),
        };
        match meta {
            Some(m) if m.file_type().is_symlink() => {
                let dir = parent(&cur);
                check_protected(dir, &m)?;
                cur = dir.join(fs::read_link(&cur)?);
            }
            _ => {
                if meta.as_ref().is_some_and(Metadata::is_dir) {
                    return Err(io::Error::from(io::ErrorKind::IsADirectory));
                }
                let name = cur
                    .file_name()
                    .ok_or_else(|| io::Error::from(io::ErrorKind::IsADirectory))?;
                let dir = fs::canonicalize(parent(&cur))?;
                return Ok((dir.join(name), meta));
            }
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Refuses to follow a link in a sticky world-writable directory unless
/// this user or the directory's owner owns it (Linux's
/// `fs.protected_symlinks` rule, applied here because the link is read,
/// not opened through).
fn check_protected(dir: &Path, link: &Metadata) -> io::Result<()> {
    let d = fs::metadata(dir)?;
    let mode = d.permissions().mode();
    let shared = mode & 0o1000 != 0 && mode & 0o002 != 0;
    let me = rustix::process::geteuid().as_raw();
    if shared && link.uid() != me && link.uid() != d.uid() {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            "it is a symbolic link owned by another user in a sticky world-writable directory; not followed",
        ));
    }
    Ok(())
}

/// A temporary file to replace the regular file `old` (in `dir`) with, or
/// `None` where the file must be written in place: it has other links, the
/// directory cannot be written, or the new file could not get its owner.
/// The temporary file has `old`'s owner and permission bits.
fn replacement(dir: &Path, prefix: &str, old: &Metadata) -> io::Result<Option<Temp>> {
    if old.nlink() > 1 {
        return Ok(None);
    }
    // Readable only by this user until it has the old file's mode.
    let temp = match Temp::create_in(dir, prefix, 0o600) {
        Ok(t) => t,
        Err(e) if cannot_write_dir(&e) => return Ok(None),
        Err(e) => return Err(e),
    };
    let now = temp.file().metadata()?;
    if (now.uid(), now.gid()) != (old.uid(), old.gid())
        && std::os::unix::fs::fchown(temp.file(), Some(old.uid()), Some(old.gid())).is_err()
    {
        // Replacing would change the owner: write in place instead.
        return Ok(None);
    }
    // After `fchown`, which clears set-user-ID and set-group-ID bits.
    temp.file()
        .set_permissions(fs::Permissions::from_mode(old.mode() & 0o7777))?;
    Ok(Some(temp))
}

/// Errors that mean "this directory cannot take a new file", where the
/// file in it may still be writable.
fn cannot_write_dir(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn modes_follow_what_the_path_is() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("new");
        assert_eq!(Destination::open(&p, ".t-").unwrap().mode(), Mode::Replace);
        fs::write(&p, b"x").unwrap();
        assert_eq!(Destination::open(&p, ".t-").unwrap().mode(), Mode::Replace);
        let q = d.path().join("link2");
        fs::hard_link(&p, &q).unwrap();
        assert_eq!(Destination::open(&p, ".t-").unwrap().mode(), Mode::InPlace);
        assert_eq!(
            Destination::open(Path::new("/dev/null"), ".t-")
                .unwrap()
                .mode(),
            Mode::Stream
        );
        assert_eq!(
            Destination::open(Path::new("-"), ".t-").unwrap().mode(),
            Mode::Stdout
        );
        let e = Destination::open(d.path(), ".t-").err().unwrap();
        assert_eq!(e.kind(), io::ErrorKind::IsADirectory);
        // Nothing left behind by the opens above.
        let mut names: Vec<_> = fs::read_dir(d.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        assert_eq!(names, ["link2", "new"]);
    }

    #[test]
    fn links_resolve_to_their_target() {
        let d = tempfile::tempdir().unwrap();
        let sub = d.path().join("sub");
        fs::create_dir(&sub).unwrap();
        symlink("sub/t", d.path().join("l1")).unwrap();
        symlink("l1", d.path().join("l2")).unwrap();
        let (target, meta) = resolve(&d.path().join("l2")).unwrap();
        assert!(meta.is_none());
        assert_eq!(target, fs::canonicalize(&sub).unwrap().join("t"));
        symlink("loop", d.path().join("loop")).unwrap();
        assert!(resolve(&d.path().join("loop")).is_err());
    }
}
