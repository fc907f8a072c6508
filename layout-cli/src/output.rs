//! Writing the output of every command, fallibly, one way.
//!
//! Commands write to an [`Output`], which remembers the first write error
//! and refuses further writes after it (so a command can stop early by
//! asking [`Output::stopped`]). [`Output::finish`] turns what happened into
//! the exit status:
//!
//! - the reader went away (a closed pipe, `| head`): quietly, the status
//!   the command would have had;
//! - any other write error (a full disk): a message on stderr if it can be
//!   written, and [`EXIT_OUTPUT`].
//!
//! Messages for people on stderr go through [`warn`], which never fails:
//! when stderr itself cannot be written there is nowhere left to say so,
//! and which keeps colour to terminals.
//!
//! Uses: nothing else in the crate.

use std::fmt;
use std::io::{self, Write};
use std::process::ExitCode;

/// Exit status when the output could not be written.
pub const EXIT_OUTPUT: u8 = crate::exit::OUTPUT;

/// A writer that remembers its first error.
pub struct Output<W: Write> {
    inner: W,
    failed: Option<io::Error>,
}

/// Standard output, buffered.
pub fn stdout() -> Output<io::BufWriter<io::StdoutLock<'static>>> {
    Output::new(io::BufWriter::with_capacity(1 << 16, io::stdout().lock()))
}

impl<W: Write> Output<W> {
    /// Wraps `inner`.
    pub const fn new(inner: W) -> Self {
        Output {
            inner,
            failed: None,
        }
    }

    /// True once a write has failed: nothing more will be written.
    pub const fn stopped(&self) -> bool {
        self.failed.is_some()
    }

    fn fail(&mut self, e: io::Error) -> io::Error {
        let copy = io::Error::new(e.kind(), e.to_string());
        self.failed.get_or_insert(e);
        copy
    }

    fn refused(&self) -> io::Result<()> {
        match &self.failed {
            Some(e) => Err(io::Error::new(e.kind(), e.to_string())),
            None => Ok(()),
        }
    }

    /// Flushes and returns the exit status: `code` if every write went
    /// through or the reader went away, [`EXIT_OUTPUT`] (with a message on
    /// stderr naming `command`) otherwise.
    pub fn finish(mut self, command: &str, code: ExitCode) -> ExitCode {
        if self.failed.is_none() {
            if let Err(e) = self.inner.flush() {
                self.failed = Some(e);
            }
        }
        match self.failed {
            None => code,
            Some(e) if e.kind() == io::ErrorKind::BrokenPipe => code,
            Some(e) => {
                warn(format_args!(
                    "layout {command}: cannot write the output: {e}\n"
                ));
                ExitCode::from(EXIT_OUTPUT)
            }
        }
    }
}

impl<W: Write> Write for Output<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.refused()?;
        match self.inner.write(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => Err(e),
            r => r.map_err(|e| self.fail(e)),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.refused()?;
        self.inner.write_all(buf).map_err(|e| self.fail(e))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.refused()?;
        self.inner.flush().map_err(|e| self.fail(e))
    }
}

/// Writes a message to stderr if it can; a failure is dropped (there is no
/// other place to report it). Colour codes in the message (the caret
/// diagnostics of [`crate::people`]) reach a terminal, and are dropped when
/// stderr is not one or `NO_COLOR` is set (`anstream`'s rules, which also
/// honour `CLICOLOR` and `CLICOLOR_FORCE`).
pub fn warn(message: fmt::Arguments<'_>) {
    let mut err = anstream::stderr().lock();
    // Ignored on purpose: see above.
    let _ = err.write_fmt(message).and_then(|()| err.flush());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Accepts `room` bytes, then fails with `kind`.
    struct Limited {
        room: usize,
        kind: io::ErrorKind,
        written: Vec<u8>,
    }

    impl Write for Limited {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.room == 0 {
                return Err(io::Error::from(self.kind));
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            self.written.extend_from_slice(&buf[..n]);
            Ok(n)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn limited(room: usize, kind: io::ErrorKind) -> Output<Limited> {
        Output::new(Limited {
            room,
            kind,
            written: Vec::new(),
        })
    }

    #[test]
    fn the_first_error_stops_every_later_write() {
        let mut out = limited(4, io::ErrorKind::StorageFull);
        assert!(out.write_all(b"abc").is_ok());
        assert!(!out.stopped());
        let e = out.write_all(b"def").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::StorageFull);
        assert!(out.stopped());
        // Refused without reaching the writer.
        assert!(out.write_all(b"").is_err());
        assert!(out.flush().is_err());
        assert_eq!(out.inner.written, b"abcd");
    }

    #[test]
    fn the_status_says_what_happened() {
        let code = |room, kind| {
            let mut out = limited(room, kind);
            let _ = out.write_all(b"abc");
            format!("{:?}", out.finish("test", ExitCode::from(1)))
        };
        let usual = format!("{:?}", ExitCode::from(1));
        let failed = format!("{:?}", ExitCode::from(EXIT_OUTPUT));
        assert_ne!(usual, failed);
        assert_eq!(code(10, io::ErrorKind::StorageFull), usual);
        assert_eq!(code(1, io::ErrorKind::BrokenPipe), usual);
        assert_eq!(code(1, io::ErrorKind::StorageFull), failed);
    }
}
