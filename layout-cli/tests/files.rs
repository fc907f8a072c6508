//! `layout relayout` and `layout draw --svg` against what their output
//! path really is: FIFOs, devices, symlinks, hard links, modes and owners,
//! read-only directories (as user 65534 when the tests run as root), full
//! disks, closed pipes, and signals that stop a run half-way; and the
//! memory a relayout takes (a heap limit under padding of hundreds of MB,
//! a window that cannot be allocated, an OUTPUT of 9.2 EB). After every
//! run no temporary file may remain.

mod support;

use std::fs;
use std::io::{Read, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A 16x16 `u8` array and its transpose: what every run below writes.
const FROM: &str = "u8[16,16]{1,0}";
const TO: &str = "u8[16,16]{0,1}";

/// The user the read-only directory tests run as, when run as root.
const NOBODY: u32 = 65534;

fn ramp() -> Vec<u8> {
    (0..=255u8).collect()
}

fn transposed() -> Vec<u8> {
    let r = ramp();
    (0..256).map(|i| r[(i % 16) * 16 + i / 16]).collect()
}

fn is_root() -> bool {
    rustix::process::geteuid().is_root()
}

fn layout_cmd(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_layout"));
    c.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

fn relayout_cmd(input: &Path, output: &Path) -> Command {
    layout_cmd(&[
        "relayout",
        "--from",
        FROM,
        "--to",
        TO,
        input.to_str().unwrap(),
        output.to_str().unwrap(),
    ])
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn ok(o: &Output) {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
}

/// A directory holding the input `in.bin` (readable by everyone, so that
/// user 65534 can run in it).
fn setup() -> (tempfile::TempDir, PathBuf) {
    let d = tempfile::tempdir().unwrap();
    fs::set_permissions(d.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let input = d.path().join("in.bin");
    fs::write(&input, ramp()).unwrap();
    (d, input)
}

/// Asserts that no `.layout-*` temporary file is in `dir`.
fn no_temporary(dir: &Path) {
    let left: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".layout-"))
        .collect();
    assert!(
        left.is_empty(),
        "left behind in {}: {left:?}",
        dir.display()
    );
}

fn mkfifo(path: &Path) {
    let st = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(st.success());
}

#[test]
fn a_fifo_is_written_as_a_stream_and_stays_a_fifo() {
    let (d, input) = setup();
    let fifo = d.path().join("out.fifo");
    mkfifo(&fifo);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut got = Vec::new();
            fs::File::open(fifo).unwrap().read_to_end(&mut got).unwrap();
            got
        })
    };
    let out = relayout_cmd(&input, &fifo).output().unwrap();
    ok(&out);
    assert_eq!(reader.join().unwrap(), transposed());
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    no_temporary(d.path());

    // The same for `draw --svg` into a FIFO.
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut got = String::new();
            fs::File::open(fifo)
                .unwrap()
                .read_to_string(&mut got)
                .unwrap();
            got
        })
    };
    let out = layout_cmd(&["draw", "f32[4,4]{1,0}", "--svg", fifo.to_str().unwrap()])
        .output()
        .unwrap();
    ok(&out);
    assert!(reader.join().unwrap().starts_with("<svg"));
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    no_temporary(d.path());
}

#[test]
fn devices_are_written_in_place() {
    let (d, input) = setup();
    // A full device: the write fails, with the user's path in the message,
    // and the device is still a device.
    let full = Path::new("/dev/full");
    let out = relayout_cmd(&input, full).output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with("error: cannot write /dev/full: "),
        "{}",
        stderr(&out)
    );
    assert!(fs::metadata(full).unwrap().file_type().is_char_device());
    let out = layout_cmd(&["draw", "f32[4,4]{1,0}", "--svg", "/dev/full"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));

    // A null device of our own (as root; never the system's): written,
    // still a character device.
    if is_root() {
        let null = d.path().join("null");
        let st = Command::new("mknod")
            .args([null.to_str().unwrap(), "c", "1", "3"])
            .status()
            .unwrap();
        assert!(st.success());
        ok(&relayout_cmd(&input, &null).output().unwrap());
        assert!(fs::symlink_metadata(&null)
            .unwrap()
            .file_type()
            .is_char_device());
    }
    no_temporary(d.path());
}

#[test]
fn a_symlink_is_resolved_and_its_target_replaced() {
    let (d, input) = setup();
    let sub = d.path().join("sub");
    fs::create_dir(&sub).unwrap();
    let target = sub.join("target.bin");
    fs::write(&target, b"old").unwrap();
    fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).unwrap();
    let link = d.path().join("link.bin");
    std::os::unix::fs::symlink("sub/target.bin", &link).unwrap();
    let out = relayout_cmd(&input, &link).output().unwrap();
    ok(&out);
    // The link is still a link, to a target that has the new data and
    // its old mode; the message names the user's path.
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(fs::read(&target).unwrap(), transposed());
    assert_eq!(fs::metadata(&target).unwrap().mode() & 0o7777, 0o640);
    assert!(String::from_utf8_lossy(&out.stdout)
        .starts_with(&format!("wrote {}: 256 bytes", link.display())));

    // A dangling link: its target is created, the link kept.
    let dangling = d.path().join("dangling.bin");
    std::os::unix::fs::symlink("sub/new.bin", &dangling).unwrap();
    ok(&relayout_cmd(&input, &dangling).output().unwrap());
    assert_eq!(fs::read(sub.join("new.bin")).unwrap(), transposed());
    assert!(fs::symlink_metadata(&dangling)
        .unwrap()
        .file_type()
        .is_symlink());
    no_temporary(d.path());
    no_temporary(&sub);
}

#[test]
fn a_foreign_symlink_in_a_sticky_shared_directory_is_not_followed() {
    if !is_root() {
        // Making a link owned by another user needs root.
        return;
    }
    let (d, input) = setup();
    let shared = d.path().join("shared");
    fs::create_dir(&shared).unwrap();
    fs::set_permissions(&shared, fs::Permissions::from_mode(0o1777)).unwrap();
    let victim = d.path().join("victim");
    fs::write(&victim, b"precious").unwrap();
    let link = shared.join("out.bin");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    std::os::unix::fs::lchown(&link, Some(NOBODY), Some(NOBODY)).unwrap();
    let out = relayout_cmd(&input, &link).output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(stderr(&out).contains("symbolic link owned by another user"));
    assert_eq!(fs::read(&victim).unwrap(), b"precious");
    no_temporary(&shared);
}

#[test]
fn replaced_files_keep_their_mode_and_owner() {
    let (d, input) = setup();
    for mode in [0o600, 0o640, 0o755, 0o444] {
        let p = d.path().join(format!("m{mode:o}.bin"));
        fs::write(&p, b"old").unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(mode)).unwrap();
        let before = fs::metadata(&p).unwrap().ino();
        let out = relayout_cmd(&input, &p).output().unwrap();
        if mode == 0o444 && !is_root() {
            // Not writable: refused, untouched, naming the user's path.
            assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
            assert_eq!(fs::read(&p).unwrap(), b"old");
            continue;
        }
        ok(&out);
        let m = fs::metadata(&p).unwrap();
        assert_eq!(m.mode() & 0o7777, mode, "{}", p.display());
        assert_eq!(fs::read(&p).unwrap(), transposed());
        // Replaced by rename: a new file.
        assert_ne!(m.ino(), before);
    }
    // A new file gets 0666 less the umask, as `File::create` does.
    let new = d.path().join("new.bin");
    ok(&relayout_cmd(&input, &new).output().unwrap());
    let created = d.path().join("created");
    fs::File::create(&created).unwrap();
    assert_eq!(
        fs::metadata(&new).unwrap().mode() & 0o7777,
        fs::metadata(&created).unwrap().mode() & 0o7777
    );
    if is_root() {
        let p = d.path().join("theirs.bin");
        fs::write(&p, b"old").unwrap();
        std::os::unix::fs::chown(&p, Some(NOBODY), Some(NOBODY)).unwrap();
        ok(&relayout_cmd(&input, &p).output().unwrap());
        let m = fs::metadata(&p).unwrap();
        assert_eq!((m.uid(), m.gid()), (NOBODY, NOBODY));
        assert_eq!(fs::read(&p).unwrap(), transposed());
    }
    no_temporary(d.path());
}

#[test]
fn hard_linked_files_are_written_in_place() {
    let (d, input) = setup();
    let a = d.path().join("a.bin");
    let b = d.path().join("b.bin");
    fs::write(&a, b"old contents, longer than the new ones? no: shorter").unwrap();
    fs::hard_link(&a, &b).unwrap();
    let ino = fs::metadata(&a).unwrap().ino();
    ok(&relayout_cmd(&input, &a).output().unwrap());
    // Both names still name one file, which holds exactly the new data.
    let (ma, mb) = (fs::metadata(&a).unwrap(), fs::metadata(&b).unwrap());
    assert_eq!((ma.ino(), mb.ino(), ma.nlink()), (ino, ino, 2));
    assert_eq!(fs::read(&b).unwrap(), transposed());
    no_temporary(d.path());
}

/// Runs `cmd` as user 65534 when root (the directory checks below mean
/// nothing to root), as this user otherwise.
fn unprivileged(cmd: &mut Command) -> Output {
    if is_root() {
        cmd.uid(NOBODY).gid(NOBODY);
    }
    cmd.output().unwrap()
}

/// Gives `path` to user 65534 when root.
fn give_away(path: &Path) {
    if is_root() {
        std::os::unix::fs::chown(path, Some(NOBODY), Some(NOBODY)).unwrap();
    }
}

#[test]
fn a_writable_file_in_a_read_only_directory_is_written_in_place() {
    let (d, input) = setup();
    let ro = d.path().join("ro");
    fs::create_dir(&ro).unwrap();
    let file = ro.join("out.bin");
    fs::write(&file, b"old").unwrap();
    give_away(&file);
    let locked = ro.join("locked.bin");
    fs::write(&locked, b"old").unwrap();
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o444)).unwrap();
    fs::set_permissions(&ro, fs::Permissions::from_mode(0o555)).unwrap();

    let out = unprivileged(&mut relayout_cmd(&input, &file));
    ok(&out);
    assert_eq!(fs::read(&file).unwrap(), transposed());
    // An SVG too.
    let out = unprivileged(&mut layout_cmd(&[
        "draw",
        "f32[4,4]{1,0}",
        "--svg",
        file.to_str().unwrap(),
    ]));
    ok(&out);
    assert!(fs::read_to_string(&file).unwrap().starts_with("<svg"));

    // A file this user cannot write either: refused, naming the path the
    // user gave and no other.
    let out = unprivileged(&mut relayout_cmd(&input, &locked));
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "error: cannot write {}: Permission denied (os error 13)\n",
            locked.display()
        )
    );
    assert_eq!(fs::read(&locked).unwrap(), b"old");
    // A new name there: refused the same way.
    let fresh = ro.join("fresh.bin");
    let out = unprivileged(&mut relayout_cmd(&input, &fresh));
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with(&format!("error: cannot write {}: ", fresh.display())),
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains(".layout-"), "{}", stderr(&out));
    no_temporary(&ro);
    fs::set_permissions(&ro, fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    let (d, _) = setup();
    // 4 MiB: far more than a pipe holds.
    let big = d.path().join("big.bin");
    fs::write(&big, vec![7u8; 4 << 20]).unwrap();
    let mut child = layout_cmd(&[
        "relayout",
        "--from",
        "u8[2048,2048]{1,0}",
        "--to",
        "u8[2048,2048]{0,1}",
        big.to_str().unwrap(),
        "-",
    ])
    .spawn()
    .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
}

#[test]
fn draw_svg_dash_writes_standard_output() {
    let (d, _) = setup();
    let out = layout_cmd(&["draw", "f32[4,4]{1,0}", "--svg", "-"])
        .current_dir(d.path())
        .output()
        .unwrap();
    ok(&out);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("<svg"));
    assert!(!d.path().join("-").exists());
}

#[test]
fn pipes_are_read_as_streams() {
    let (d, _) = setup();
    let out_path = d.path().join("o.bin");
    // `/dev/stdin` from a pipe.
    let out = support::layout(
        &[
            "relayout",
            "--from",
            FROM,
            "--to",
            TO,
            "/dev/stdin",
            out_path.to_str().unwrap(),
        ],
        &ramp(),
    );
    ok(&out);
    assert_eq!(fs::read(&out_path).unwrap(), transposed());
    // A FIFO as INPUT, too short.
    let fifo = d.path().join("in.fifo");
    mkfifo(&fifo);
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::write(fifo, [1u8; 100]).unwrap())
    };
    let out = relayout_cmd(&fifo, &out_path).output().unwrap();
    writer.join().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("has fewer bytes than u8[16,16]{1,0} takes (256)"));
    assert_eq!(fs::read(&out_path).unwrap(), transposed());
    no_temporary(d.path());
}

#[test]
fn an_empty_pipe_is_not_answered_with_the_whole_allocation() {
    // Under a 1 GiB address-space limit an 8 GB --from is refused for what
    // stdin holds, not for memory allocated before reading (which this
    // limit refuses: "cannot hold the input in memory").
    let (d, _) = setup();
    let out_path = d.path().join("o.bin");
    let out = Command::new("prlimit")
        .arg(format!("--as={}", 1u64 << 30))
        .arg(env!("CARGO_BIN_EXE_layout"))
        .args([
            "relayout",
            "--from",
            "u8[8000000000]{0}",
            "--to",
            "u8[8000000000]{0}",
            "-",
            out_path.to_str().unwrap(),
        ])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{:?}: {}",
        out.status,
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("standard input has fewer bytes"),
        "{}",
        stderr(&out)
    );
    assert!(!out_path.exists());
    no_temporary(d.path());
}

/// The names of the temporary files in `dir`.
fn temporaries(dir: &Path) -> Vec<PathBuf> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(".layout-")
        })
        .collect()
}

/// Waits until `dir` holds a temporary file (the child is writing).
fn wait_for_temporary(dir: &Path, child: &mut Child) {
    let start = Instant::now();
    while temporaries(dir).is_empty() {
        assert!(child.try_wait().unwrap().is_none(), "the child ended early");
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no temporary file"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn signals_remove_the_temporary_file() {
    for (name, number) in [("INT", 2), ("TERM", 15), ("HUP", 1)] {
        let (d, _) = setup();
        let out_path = d.path().join("o.bin");
        fs::write(&out_path, b"old").unwrap();
        let mut child = layout_cmd(&[
            "relayout",
            "--from",
            "u8[1048576]{0}",
            "--to",
            "u8[1048576]{0:T(1024)}",
            "-",
            out_path.to_str().unwrap(),
        ])
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
        // Half the input, then nothing: the run waits with its temporary
        // file open.
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(&[1u8; 1 << 19]).unwrap();
        wait_for_temporary(d.path(), &mut child);
        send(name, &child);
        let out = child.wait_with_output().unwrap();
        drop(stdin);
        assert_eq!(
            out.status.code(),
            Some(128 + number),
            "SIG{name}: {:?} {}",
            out.status.signal(),
            stderr(&out)
        );
        no_temporary(d.path());
        assert_eq!(fs::read(&out_path).unwrap(), b"old", "SIG{name}");
    }
}

/// Sends SIG`name` to `child` with kill(1).
fn send(name: &str, child: &Child) {
    let st = Command::new("kill")
        .args([format!("-{name}"), child.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success(), "kill -{name}");
}

/// Waits for `child` to end, at most 10 s (then kills it and fails).
fn ended_within_10s(child: &mut Child, what: &str) -> Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("{what}: still running 10 s after the signal");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    Output {
        status,
        stdout: Vec::new(),
        stderr: err.into_bytes(),
    }
}

/// `layout relayout` from a FIFO this test holds open and never writes to,
/// into `out_path` (which holds `old`): the child opens INPUT, creates its
/// temporary file beside OUTPUT and waits for the first byte. Returns the
/// child, once the temporary file exists, and the FIFO's handle, to be
/// kept until the child ended.
fn blocked_on_a_fifo(dir: &Path, out_path: &Path) -> (Child, fs::File) {
    fs::write(out_path, b"old").unwrap();
    let fifo = dir.join("in.fifo");
    if !fifo.exists() {
        mkfifo(&fifo);
    }
    // Read and write: opening waits for no reader, and the child's open
    // waits for no writer.
    let held = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&fifo)
        .unwrap();
    let mut child = relayout_cmd(&fifo, out_path).spawn().unwrap();
    wait_for_temporary(dir, &mut child);
    (child, held)
}

#[test]
fn a_signal_during_a_fifo_read_removes_the_temporary_file() {
    let (d, _) = setup();
    let out_path = d.path().join("o.bin");
    for (name, number) in [("INT", 2), ("TERM", 15), ("HUP", 1)] {
        let (mut child, held) = blocked_on_a_fifo(d.path(), &out_path);
        send(name, &child);
        let out = ended_within_10s(&mut child, name);
        drop(held);
        assert_eq!(
            out.status.code(),
            Some(128 + number),
            "SIG{name}: {:?} {}",
            out.status.signal(),
            stderr(&out)
        );
        no_temporary(d.path());
        assert_eq!(fs::read(&out_path).unwrap(), b"old", "SIG{name}");
    }
}

#[test]
fn a_second_signal_still_ends_the_run_and_no_temporary_file_remains() {
    // Two signals in quick succession (each its own kill(1), so the second
    // may come before, during or after the first one's clean-up): the run
    // ends at once with 128 + one of the two numbers (the first one's
    // unless the clean-up was stuck for a second), and its temporary file
    // is gone either way.
    let (d, _) = setup();
    let out_path = d.path().join("o.bin");
    for (first, second, statuses) in [
        ("TERM", "INT", [143, 130]),
        ("INT", "INT", [130, 130]),
        ("HUP", "TERM", [129, 143]),
        ("INT", "HUP", [130, 129]),
    ] {
        let what = format!("SIG{first} then SIG{second}");
        let (mut child, held) = blocked_on_a_fifo(d.path(), &out_path);
        send(first, &child);
        // Not waited for yet, the child is at worst a zombie: kill(1)
        // succeeds.
        send(second, &child);
        let out = ended_within_10s(&mut child, &what);
        drop(held);
        let code = out.status.code();
        assert!(
            code.is_some_and(|c| statuses.contains(&c)),
            "{what}: {:?} {:?} {}",
            out.status,
            out.status.signal(),
            stderr(&out)
        );
        no_temporary(d.path());
        assert_eq!(fs::read(&out_path).unwrap(), b"old", "{what}");
    }
}

/// `layout relayout` with a heap limit (`prlimit --data`) and two rayon
/// threads, so that what it may hold does not depend on the machine's
/// cores.
fn limited(data_mib: u64, from: &str, to: &str, input: &Path, output: &Path) -> Output {
    Command::new("prlimit")
        .arg(format!("--data={}", data_mib << 20))
        .arg(env!("CARGO_BIN_EXE_layout"))
        .args([
            "relayout",
            "--from",
            from,
            "--to",
            to,
            input.to_str().unwrap(),
            output.to_str().unwrap(),
        ])
        .env("RAYON_NUM_THREADS", "2")
        .env("MALLOC_ARENA_MAX", "2")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

#[test]
fn huge_padding_is_written_in_bounded_memory() {
    // 200 MB of output under a 64 MiB heap: an `L(n)` tail and rows that
    // are each a 100 MB tile are made one 16 MiB window at a time (they
    // used to take a buffer the size of the tail, or of a tile row: 984
    // MB and 496 MB resident for `L(1000000000)` and `T(1,500000000)`).
    let d = tempfile::tempdir().unwrap();
    for (from, to, data) in [
        ("u8[4]{0}", "u8[4]{0:L(200000000)}", vec![1u8, 2, 3, 4]),
        (
            "u8[2,3]{1,0}",
            "u8[2,3]{1,0:T(1,100000000)}",
            vec![1, 2, 3, 4, 5, 6],
        ),
    ] {
        let input = d.path().join("in.bin");
        fs::write(&input, &data).unwrap();
        let out = limited(64, from, to, &input, Path::new("/dev/null"));
        assert_eq!(
            out.status.code(),
            Some(0),
            "{to}: {:?} {}",
            out.status,
            stderr(&out)
        );
    }
    // Into a file, checked: the elements, then zeros.
    let input = d.path().join("in.bin");
    fs::write(&input, [1u8, 2, 3, 4, 5, 6]).unwrap();
    let out_path = d.path().join("o.bin");
    let out = limited(
        64,
        "u8[2,3]{1,0}",
        "u8[2,3]{0,1:T(1,20000000)}",
        &input,
        &out_path,
    );
    ok(&out);
    let got = fs::read(&out_path).unwrap();
    assert_eq!(got.len(), 60_000_000);
    assert_eq!(got[..2], [1, 4]);
    assert_eq!(got[20_000_000..20_000_002], [2, 5]);
    assert_eq!(got[40_000_000..40_000_002], [3, 6]);
    let nonzero = got.iter().filter(|&&b| b != 0).count();
    assert_eq!(nonzero, 6);
    no_temporary(d.path());
}

#[test]
fn an_output_too_big_for_its_file_system_is_refused() {
    // 9.2 EB of `u8` (it used to abort, status 134, leaving its temporary
    // file); `f32` of that length does not even parse.
    let d = tempfile::tempdir().unwrap();
    let input = d.path().join("in.bin");
    fs::write(&input, [1u8, 2, 3, 4]).unwrap();
    let out_path = d.path().join("o.bin");
    for (from, to, says) in [
        (
            "u8[4]{0}",
            "u8[4]{0:L(9223372036854775807)}",
            "would take 9223372036854775807 bytes",
        ),
        ("f32[1]{0}", "f32[1]{0:L(9223372036854775807)}", "overflows"),
    ] {
        let out = limited(64, from, to, &input, &out_path);
        assert_eq!(out.status.code(), Some(1), "{to}: {:?}", out.status);
        assert!(stderr(&out).contains(says), "{to}: {}", stderr(&out));
        assert!(!out_path.exists());
        no_temporary(d.path());
    }
}

#[test]
fn a_window_that_cannot_be_allocated_is_an_error() {
    // Under an 8 MiB heap the 16 MiB window is refused: status 1 and a
    // message, never an abort; no file, no temporary file.
    let d = tempfile::tempdir().unwrap();
    let input = d.path().join("in.bin");
    fs::write(&input, [1u8, 2, 3, 4]).unwrap();
    let out_path = d.path().join("o.bin");
    let out = limited(8, "u8[4]{0}", "u8[4]{0:L(200000000)}", &input, &out_path);
    assert_eq!(out.status.code(), Some(1), "{:?}", out.status);
    assert!(
        stderr(&out).contains(
            "cannot hold a window of the output in memory (cannot allocate 16777216 bytes)"
        ),
        "{}",
        stderr(&out)
    );
    assert!(!out_path.exists());
    no_temporary(d.path());
}
