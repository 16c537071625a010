//! The error of opening a robots store: which path, what was being done, and the I/O error.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// A robots store could not be opened: a path that cannot be read or listed, or a WARC file
/// without a single record. The message names the path; [`std::error::Error::source`] is the
/// I/O error (`InvalidData` for a file that is not a WARC).
#[derive(Debug)]
pub struct Error {
    kind: ErrorKind,
    path: PathBuf,
    source: io::Error,
}

/// What was being done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ErrorKind {
    /// `stat` of the store's path.
    RobotsPath,
    /// Listing the store's directory.
    ListDir,
    /// Reading a robots.txt file.
    RobotsFile,
    /// Reading a WARC file.
    WarcFile,
    /// A WARC file in which no record was found.
    NoWarcRecord,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, path: &Path, source: io::Error) -> Error {
        Error {
            kind,
            path: path.to_path_buf(),
            source,
        }
    }

    /// The path that could not be read.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The kind of the underlying I/O error (`NotFound`, `PermissionDenied`, ...).
    pub fn io_kind(&self) -> io::ErrorKind {
        self.source.kind()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        match self.kind {
            ErrorKind::RobotsPath => write!(f, "cannot read robots path '{path}'"),
            ErrorKind::ListDir => write!(f, "cannot list robots directory '{path}'"),
            ErrorKind::RobotsFile => write!(f, "cannot read robots.txt file '{path}'"),
            ErrorKind::WarcFile => write!(f, "cannot read WARC file '{path}'"),
            ErrorKind::NoWarcRecord => write!(f, "'{path}' holds no WARC record"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

impl From<Error> for io::Error {
    /// An I/O error of the same kind whose message names the path and the cause.
    fn from(e: Error) -> io::Error {
        io::Error::new(e.source.kind(), format!("{e}: {}", e.source))
    }
}
