//! The exit statuses of every `layout` command, in one table.
//!
//! Every subcommand (and any new one, such as `oom`) exits with one of the
//! statuses below and nothing else; `layout --help` prints [`HELP`], which
//! a unit test checks against [`TABLE`]. A command adopts the table by
//! returning `ExitCode::from(exit::INVALID)` and so on; it documents which
//! of the rows it can reach, not new numbers.
//!
//! | status | constant | meaning |
//! |---|---|---|
//! | 0 | [`SUCCESS`] | success |
//! | 1 | [`INVALID`] | bad input: an invalid shape or index, data that does not match `--from`, an array too big for memory, a `relayout` OUTPUT file larger than its file system's free space, a dump that fails to parse or holds no HLO, a `scan --computation` name it does not hold, a dump directory with no buffer assignment or a line of one that cannot be read, an `oom` input with no report or a malformed entry |
//! | 2 | [`USAGE`] | a usage error (unknown option, missing argument) |
//! | 2 | [`UNREADABLE`] | the input could not be read (a missing file, a directory other than `scan`'s dump directory, an I/O error) |
//! | 3 | [`OUTPUT`] | the output could not be written (a full disk, an I/O error); a reader that goes away (a closed pipe, `\| head`) is not an error |
//! | 128+n | [`signaled`] | stopped by signal n (SIGHUP 129, SIGINT 130, SIGTERM 143), after removing any temporary file |
//!
//! Usage errors and unreadable inputs share 2, as they always have.
//!
//! Uses: nothing else in the crate.

/// Success.
pub const SUCCESS: u8 = 0;
/// Bad input: the command understood its arguments, and they (or the data
/// they name) are wrong.
pub const INVALID: u8 = 1;
/// A usage error: clap's own status.
pub const USAGE: u8 = 2;
/// The input could not be read.
pub const UNREADABLE: u8 = 2;
/// The output could not be written.
pub const OUTPUT: u8 = 3;

/// The status for a run stopped by signal `n`: 128 + n, as shells report
/// it (saturating; signal numbers are small).
pub const fn signaled(n: i32) -> i32 {
    128_i32.saturating_add(n)
}

/// One row of the table: the status as text and what it means.
pub struct Row {
    /// The status, e.g. `"1"` or `"128+n"`.
    pub status: &'static str,
    /// What it means (continuation lines indented for `--help`).
    pub meaning: &'static str,
}

/// Every status a `layout` command exits with.
pub const TABLE: &[Row] = &[
    Row {
        status: "0",
        meaning: "success",
    },
    Row {
        status: "1",
        meaning: "bad input: an invalid shape or index, data that does not match --from,\n         an array too big for memory, a relayout OUTPUT file larger than its\n         file system's free space, a dump that fails to parse or holds no HLO,\n         a scan --computation name it does not hold, a dump directory with no\n         buffer assignment or a line of one that cannot be read, an oom input\n         with no report or a malformed entry",
    },
    Row {
        status: "2",
        meaning: "a usage error, or the input could not be read",
    },
    Row {
        status: "3",
        meaning: "the output could not be written (a closed pipe is not an error)",
    },
    Row {
        status: "128+n",
        meaning: "stopped by signal n (130 for Ctrl-C); no temporary file is left",
    },
];

/// The exit status section of `layout --help`: [`TABLE`], one row a line.
pub const HELP: &str = "Exit status (every command):
  0      success
  1      bad input: an invalid shape or index, data that does not match --from,
         an array too big for memory, a relayout OUTPUT file larger than its
         file system's free space, a dump that fails to parse or holds no HLO,
         a scan --computation name it does not hold, a dump directory with no
         buffer assignment or a line of one that cannot be read, an oom input
         with no report or a malformed entry
  2      a usage error, or the input could not be read
  3      the output could not be written (a closed pipe is not an error)
  128+n  stopped by signal n (130 for Ctrl-C); no temporary file is left";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_is_the_table() {
        let mut text = String::from("Exit status (every command):");
        for row in TABLE {
            text.push_str(&format!("\n  {:<7}{}", row.status, row.meaning));
        }
        assert_eq!(HELP, text);
    }

    #[test]
    fn signals_add_128() {
        assert_eq!(signaled(2), 130);
        assert_eq!(signaled(15), 143);
        assert_eq!(signaled(i32::MAX), i32::MAX);
    }
}
