//! Reading and writing the tool's files without losing one: text is read
//! with the position of the first byte that is not UTF-8, and with CR, LF
//! and CRLF line endings alike (each becomes LF, so every reader sees the
//! lines an editor shows) and a leading byte order mark dropped; an
//! output path is
//! checked before any work is done (a regular file or absent, not one of
//! the command's inputs, in an existing directory the tool can write to);
//! and every output is written atomically — to a temporary file beside it,
//! synced, then renamed over it — so a failed write (a full disk, a size
//! limit) leaves the previous file as it was and no partial one.
//!
//! Renaming over a path replaces whatever is there, so only a regular file
//! may be replaced: a device, a FIFO, a socket or a directory is refused. A
//! symbolic link to a regular file is written through — the file it names
//! is replaced atomically and the link kept — as a shell's `>` would; a link
//! to anything else, or to nothing, is refused.
//!
//! Knows nothing about formats: callers parse and print.

use std::io::Write;
use std::path::{Path, PathBuf};

/// A file that could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The operating system refused to read the file.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The file is larger than any input the tool reads.
    #[error("{path}: larger than {limit} bytes, the most the tool reads from one input")]
    TooLarge {
        /// The file.
        path: String,
        /// [`MAX_INPUT`].
        limit: u64,
    },
    /// The file is not UTF-8 text: where its first bad byte is.
    #[error(transparent)]
    NotUtf8(crate::located::Located<NotUtf8>),
    /// The output is an existing directory.
    #[error("{path}: the output is a directory; give a file name")]
    IsDirectory {
        /// The output.
        path: String,
    },
    /// The output exists and is not a regular file (nor a link to one).
    #[error("{path}: the output is {kind}, not a regular file; only a regular file is replaced, give another name")]
    NotRegular {
        /// The output.
        path: String,
        /// What it is ("a FIFO", "a character device", ...).
        kind: &'static str,
    },
    /// The output is `-`, which is not a file name for this tool.
    #[error("-: standard output is not an output file here (it carries the command's report); give a file name (./- for a file named '-')")]
    Dash,
    /// The output is one of the command's inputs.
    #[error("{path}: the output is also an input ({input}); writing it would replace the input, choose another file")]
    SameAsInput {
        /// The output.
        path: String,
        /// The input it names.
        input: String,
    },
    /// The output's directory does not exist or cannot be written.
    #[error("{path}: cannot write the output in directory {dir}: {reason}")]
    Unwritable {
        /// The output.
        path: String,
        /// Its directory.
        dir: String,
        /// Why.
        reason: String,
    },
    /// Writing the output failed; the previous file, if any, is unchanged.
    #[error("{path}: writing failed ({source}); the previous file, if any, is unchanged")]
    Write {
        /// The output.
        path: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}

/// A byte that is not UTF-8 text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected UTF-8 text, found byte 0x{byte:02x}")]
pub struct NotUtf8 {
    /// The first bad byte.
    pub byte: u8,
}

/// The most bytes read from one input file (256 MiB: several million test
/// transitions), so that a device that never ends (`/dev/zero`) or a huge
/// file is refused instead of exhausting memory.
pub const MAX_INPUT: u64 = 256 << 20;

/// Reads `path` as UTF-8 text, each CRLF or lone CR read as LF, and
/// without a leading byte order mark (some editors write one; it is not
/// part of the first line's text).
pub fn read_text(path: &Path) -> Result<String, FileError> {
    let mut text = read_exact_text(path)?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(if text.contains('\r') { text.replace("\r\n", "\n").replace('\r', "\n") } else { text })
}

/// Reads `path` as bytes (an image, say), at most [`MAX_INPUT`] of them.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, FileError> {
    use std::io::Read;
    let shown = path.display().to_string();
    let read_error = |source| FileError::Read { path: shown.clone(), source };
    let mut bytes = vec![];
    std::fs::File::open(path).and_then(|f| f.take(MAX_INPUT + 1).read_to_end(&mut bytes)).map_err(read_error)?;
    if bytes.len() as u64 > MAX_INPUT {
        return Err(FileError::TooLarge { path: shown, limit: MAX_INPUT });
    }
    Ok(bytes)
}

/// Reads `path` as UTF-8 text byte for byte (line endings as they are):
/// for a file the tool itself appends to and truncates at byte offsets.
pub fn read_exact_text(path: &Path) -> Result<String, FileError> {
    let shown = path.display().to_string();
    String::from_utf8(read_bytes(path)?).map_err(|e| {
        let good = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        // the prefix before the bad byte is valid UTF-8 by construction
        let before = std::str::from_utf8(&bytes[..good]).unwrap_or_default();
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let (line, column) = (before.matches('\n').count() + 1, before[line_start..].chars().count() + 1);
        FileError::NotUtf8(crate::located::Located::new(&shown, line, column, NotUtf8 { byte: bytes[good] }))
    })
}

/// The directory an output is written in (`.` for a bare file name).
fn directory_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// What a path that exists but is not a regular file is, for messages.
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO";
        } else if t.is_char_device() {
            return "a character device";
        } else if t.is_block_device() {
            return "a block device";
        } else if t.is_socket() {
            return "a socket";
        }
    }
    if meta.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// The path an output is really written at: `output` itself if it is a
/// regular file or absent, the file it names if it is a symbolic link to a
/// regular file; refuses anything else (see the module's doc).
pub fn output_target(output: &Path) -> Result<PathBuf, FileError> {
    let shown = output.display().to_string();
    if output.as_os_str() == "-" {
        return Err(FileError::Dash);
    }
    let Ok(own) = std::fs::symlink_metadata(output) else { return Ok(output.to_path_buf()) };
    if own.is_file() {
        return Ok(output.to_path_buf());
    }
    if own.is_dir() {
        return Err(FileError::IsDirectory { path: shown });
    }
    if !own.file_type().is_symlink() {
        return Err(FileError::NotRegular { path: shown, kind: kind_of(&own) });
    }
    match (std::fs::metadata(output), output.canonicalize()) {
        (Ok(meta), Ok(target)) if meta.is_file() => Ok(target),
        (Ok(meta), _) if meta.is_dir() => Err(FileError::IsDirectory { path: shown }),
        (Ok(meta), _) => Err(FileError::NotRegular { path: shown, kind: kind_of(&meta) }),
        (Err(_), _) => Err(FileError::NotRegular { path: shown, kind: "a symbolic link to nothing" }),
    }
}

/// Checks, before any work, that `output` can be written and replaces none
/// of `inputs`: it is a regular file, a link to one, or absent
/// ([`output_target`]); not the same file as an input (after resolving
/// links and `..`); and its directory exists and accepts a new file (tried
/// by creating and removing a temporary one).
pub fn check_output(output: &Path, inputs: &[&Path]) -> Result<(), FileError> {
    let shown = output.display().to_string();
    let target = output_target(output)?;
    if let Ok(out) = target.canonicalize() {
        for input in inputs {
            if input.canonicalize().is_ok_and(|i| i == out) {
                return Err(FileError::SameAsInput { path: shown, input: input.display().to_string() });
            }
        }
    }
    let dir = directory_of(&target);
    let unwritable =
        |reason: String| FileError::Unwritable { path: shown.clone(), dir: dir.display().to_string(), reason };
    if !dir.is_dir() {
        return Err(unwritable("no such directory".into()));
    }
    temp_beside(&target, &dir).map(drop).map_err(|e| unwritable(e.to_string()))
}

/// A new temporary file in `dir`, named after `output`, readable as a new
/// file would be (mode 0666 less the umask on Unix).
fn temp_beside(output: &Path, dir: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let name = output.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder.tempfile_in(dir)
}

/// Writes `contents` to `path` atomically: a temporary file in the same
/// directory is written and synced to disk, then renamed over `path` (over
/// the file it names if it is a link to one). On any failure the temporary
/// file is removed and `path` is untouched; what is not a regular file is
/// refused again here, in case it appeared since the command's check.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<(), FileError> {
    let target = output_target(path)?;
    let fail = |source| FileError::Write { path: path.display().to_string(), source };
    let mut temp = temp_beside(&target, &directory_of(&target)).map_err(fail)?;
    temp.write_all(contents).map_err(fail)?;
    temp.as_file().sync_all().map_err(fail)?;
    temp.persist(&target).map_err(|e| fail(e.error))?;
    Ok(())
}

/// A bundled input found neither where it was given nor in the source tree.
#[derive(Debug, thiserror::Error)]
#[error("{path}: not found in the working directory nor in {tree} (the source tree stratsynth was built from); give its path")]
pub struct NotBundled {
    /// The path as given.
    pub path: String,
    /// The source tree.
    pub tree: &'static str,
}

impl From<NotBundled> for String {
    fn from(e: NotBundled) -> String {
        e.to_string()
    }
}

/// A bundled input (the defaults of `bench`, `learn nonogram` and the
/// studio's bench): the path as given if it exists, else the same relative
/// path in the source tree stratsynth was built from, so that the defaults
/// work outside the checkout.
pub fn bundled(path: &Path) -> Result<PathBuf, NotBundled> {
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    if path.exists() || path.is_absolute() {
        Ok(path.to_path_buf())
    } else if built.exists() {
        Ok(built)
    } else {
        Err(NotBundled { path: path.display().to_string(), tree: env!("CARGO_MANIFEST_DIR") })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_utf8_is_located() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.rules");
        std::fs::write(&path, b"def a:\n  w\xc3\xa9x\xff\n").unwrap();
        match read_text(&path).unwrap_err() {
            FileError::NotUtf8(e) => assert_eq!((e.line, e.column, e.kind.byte), (2, 6, 0xff)),
            e => panic!("unexpected {e}"),
        }
    }

    #[test]
    fn line_endings_are_read_alike() {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in [("lf", "a\nb\n"), ("crlf", "a\r\nb\r\n"), ("cr", "a\rb\r"), ("bom", "\u{feff}a\nb\n")] {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            assert_eq!(read_text(&path).unwrap(), "a\nb\n", "{name}");
        }
    }

    #[test]
    fn outputs_are_checked_and_replaced_whole() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in.lines");
        std::fs::write(&input, "old").unwrap();
        let via_dots = dir.path().join(".").join("in.lines");
        assert!(matches!(check_output(&via_dots, &[&input]), Err(FileError::SameAsInput { .. })));
        assert!(matches!(check_output(dir.path(), &[]), Err(FileError::IsDirectory { .. })));
        let missing = dir.path().join("nope").join("out");
        assert!(matches!(check_output(&missing, &[]), Err(FileError::Unwritable { .. })));
        let out = dir.path().join("out.lines");
        check_output(&out, &[&input]).unwrap();
        write_atomic(&out, b"new").unwrap();
        write_atomic(&input, b"replaced").unwrap();
        assert_eq!(std::fs::read_to_string(&input).unwrap(), "replaced");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2, "no temporary file left");
    }
}
