//! Standard output that never panics. Every command prints through the
//! `println!` and `print!` macros defined in `main.rs`, which shadow std's
//! (whose failure is a panic) and call [`line`] and [`text`] here. A reader
//! that closed the pipe (`stratsynth cover ... | head -1`) ends the process
//! quietly with status 141, as the default SIGPIPE action would; any other
//! failure (`> /dev/full`) is reported on standard error with status 2.
//! (`eprintln!` there ignores a closed standard error.)

use std::fmt::Arguments;
use std::io::{ErrorKind, Write};

/// Exit status after the reader closed standard output (128 + SIGPIPE).
pub const CLOSED_PIPE_STATUS: i32 = 141;

/// Prints `args` and a newline.
pub fn line(args: Arguments) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.write_all(b"\n")) {
        fail(e);
    }
}

/// Prints `args` and flushes, so that a failure surfaces here rather than
/// silently at exit.
pub fn text(args: Arguments) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        fail(e);
    }
}

/// Ends the process after standard output failed.
fn fail(e: std::io::Error) -> ! {
    if e.kind() == ErrorKind::BrokenPipe {
        std::process::exit(CLOSED_PIPE_STATUS);
    }
    // standard error may be closed too; there is nothing more to do then
    let _ = writeln!(std::io::stderr(), "error: writing to standard output: {e}");
    std::process::exit(2);
}
