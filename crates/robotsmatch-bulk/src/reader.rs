//! Reading logs: chunks cut at line boundaries, processed on worker threads, results handed
//! out in input order.
//!
//! Plain files are memory-mapped and cut in place; gzip files (detected by magic bytes, any
//! number of members) and stdin are read by whichever worker takes the next chunk, which fills
//! a buffer and carries the incomplete last line over to the next chunk, so every source feeds
//! the same pipeline. This is the only place where logs are read and cut into lines
//! ([`Chunk::lines`]).
//!
//! A line ends at LF, CR LF or a lone CR (logs written on old Macs, or by tools that emit CR
//! only). A line longer than [`ReadConfig::max_line`] is not kept: the reader passes on only
//! its first [`LINE_PREFIX`] bytes, marked [`Line::too_long`], and skips the rest of it to the
//! next line end, so a stream without a newline costs neither memory nor time beyond one pass
//! (each byte read is searched once). A stream that ends badly (a truncated gzip member, a read
//! error) yields every complete line read before the cut; the cut line is dropped and counted
//! in the [`LogError`].
//!
//! Workers pull chunks one at a time as they finish the previous one (no window barrier, so
//! no core waits for the slowest chunk of a window), and at most `4 × threads` chunks are
//! ahead of the consumer, which runs on the calling thread and receives the results in input
//! order. The calling thread is one of the `threads` workers: between results it takes
//! chunks of its own while there is room ahead (so a run of `threads` threads spawns
//! `threads - 1`, and no thread of the run only waits). With one thread there are no other
//! workers: the calling thread takes each chunk, processes it and consumes the result. A
//! memory-mapped file is cut into chunks of at most [`ReadConfig::chunk_size`] bytes, smaller
//! towards the end of the file (a quarter of what is left per thread, down to 64 KiB), so that
//! both cores stay busy until the last line.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// Where a log comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LogPath {
    /// Standard input (`-`).
    Stdin,
    /// A file.
    File(PathBuf),
}

impl LogPath {
    /// `-` is stdin; anything else a file.
    pub fn parse(s: &str) -> LogPath {
        if s == "-" {
            LogPath::Stdin
        } else {
            LogPath::File(PathBuf::from(s))
        }
    }

    /// The name used in messages.
    pub fn display(&self) -> String {
        match self {
            LogPath::Stdin => "<stdin>".into(),
            LogPath::File(p) => p.display().to_string(),
        }
    }
}

/// How logs are read and how many threads process them.
#[derive(Clone, Debug)]
pub struct ReadConfig {
    /// The largest chunk in bytes (a chunk ends at the first newline after it).
    pub chunk_size: usize,
    /// Memory-map plain files (otherwise they are read like streams).
    pub mmap: bool,
    /// Worker threads, the calling thread included (at least 1; at most [`max_threads`], more
    /// are run as that many). With 1, the calling thread does the work alone.
    pub threads: usize,
    /// The longest line kept, in bytes (without its line end); a longer line is passed on as
    /// its first [`LINE_PREFIX`] bytes, marked [`Line::too_long`].
    pub max_line: usize,
}

/// The default [`ReadConfig::chunk_size`]: 256 KiB.
// PERF: with `--format tsv` the output of every chunk in flight (up to four per thread) is held
// until its turn: on the 1 GB benchmark log, 2 threads, 1 MiB chunks peaked at 68.5-70.8 MiB
// beyond the mapped log, 256 KiB chunks at 64.3-65.6 MiB, in the same time (1.61-1.65 s
// against 1.63-1.64 s; `summary` alike). 128 KiB chunks were slower (1.96-2.10 s).
pub const DEFAULT_CHUNK_SIZE: usize = 256 << 10;

impl Default for ReadConfig {
    /// 256 KiB chunks ([`DEFAULT_CHUNK_SIZE`]), memory-mapped, one thread per core, lines of at most
    /// [`DEFAULT_MAX_LINE`] bytes.
    fn default() -> ReadConfig {
        ReadConfig {
            chunk_size: DEFAULT_CHUNK_SIZE,
            mmap: true,
            threads: default_threads(),
            max_line: DEFAULT_MAX_LINE,
        }
    }
}

/// The default of [`ReadConfig::max_line`]: 1 MiB, far above any real URL (browsers stop
/// at 2 MB, servers and crawlers much earlier) while bounding what one line can cost.
pub const DEFAULT_MAX_LINE: usize = 1 << 20;

/// How many bytes of a line longer than [`ReadConfig::max_line`] are kept, for the output and
/// the report of malformed lines.
pub const LINE_PREFIX: usize = 256;

/// One thread per core (1 when that cannot be told).
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The most worker threads a run uses: 4 per core, and at least 16. Classification is CPU
/// bound, so threads beyond the cores only cost memory (each keeps its own host table and
/// caches, and up to four chunks of input wait for each); 20,000 threads used to exhaust the
/// machine (issue 16).
pub fn max_threads() -> usize {
    (4 * default_threads()).max(16)
}

/// The smallest chunk the end-of-file split goes down to (unless the chunk size is smaller).
const MIN_CHUNK: usize = 64 << 10;

/// One chunk of a log: whole lines (the last may lack its line end at end of input). Read
/// its lines with [`Chunk::lines`].
pub struct Chunk<'a> {
    /// The bytes of the chunk (for a chunk that is [`Chunk::too_long`], the first bytes of
    /// its one line).
    pub data: &'a [u8],
    /// Index of the log in the list given to [`run`].
    pub log: usize,
    /// True for the first chunk of a log (where a byte-order mark may sit).
    pub first: bool,
    /// The chunk's position in the input, over all logs (0, 1, 2, ...).
    pub seq: u64,
    /// True when the chunk is one line longer than [`ReadConfig::max_line`], of which `data`
    /// holds the first [`LINE_PREFIX`] bytes (the rest was skipped unread by anyone).
    pub too_long: bool,
    max_line: usize,
}

impl<'a> Chunk<'a> {
    /// A chunk of whole lines held in memory (for tests and tools), with the default line
    /// limit.
    pub fn new(data: &'a [u8], first: bool) -> Chunk<'a> {
        Chunk {
            data,
            log: 0,
            first,
            seq: 0,
            too_long: false,
            max_line: DEFAULT_MAX_LINE,
        }
    }

    /// The same chunk with another line limit (see [`ReadConfig::max_line`]).
    pub fn max_line(mut self, bytes: usize) -> Chunk<'a> {
        self.max_line = bytes;
        self
    }

    /// The lines of the chunk, in order, without their line ends (LF, CR LF or a lone CR)
    /// and, on the first line of a log, without a UTF-8 byte-order mark.
    ///
    /// ```
    /// use robotsmatch_bulk::reader::Chunk;
    ///
    /// let lines: Vec<&[u8]> = Chunk::new(b"a\r\nb\rc\n\nd", false).lines().map(|l| l.text).collect();
    /// assert_eq!(lines, [&b"a"[..], b"b", b"c", b"", b"d"]);
    /// ```
    pub fn lines(&self) -> Lines<'a> {
        Lines {
            rest: self.data,
            first: self.first,
            too_long: self.too_long,
            max_line: self.max_line,
        }
    }
}

/// One line of a chunk (see [`Chunk::lines`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    /// The line without its line end; for a line that is [`Line::too_long`], its first
    /// [`LINE_PREFIX`] bytes.
    pub text: &'a [u8],
    /// The line is longer than [`ReadConfig::max_line`]: it holds no usable URL.
    pub too_long: bool,
}

/// The lines of a chunk: see [`Chunk::lines`].
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    rest: &'a [u8],
    first: bool,
    too_long: bool,
    max_line: usize,
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    #[inline]
    fn next(&mut self) -> Option<Line<'a>> {
        if self.too_long {
            self.too_long = false;
            let mut text = std::mem::take(&mut self.rest);
            if self.first {
                self.first = false;
                text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
            }
            return Some(Line {
                text: &text[..text.len().min(LINE_PREFIX)],
                too_long: true,
            });
        }
        if self.rest.is_empty() {
            return None;
        }
        let rest = self.rest;
        let (mut text, next) = match robotsmatch::parse::find_line_end(rest) {
            Some(i) if rest[i] == b'\r' && rest.get(i + 1) == Some(&b'\n') => (&rest[..i], i + 2),
            Some(i) => (&rest[..i], i + 1),
            None => (rest, rest.len()),
        };
        self.rest = &rest[next..];
        // The limit counts the line as read (a byte-order mark included), as a stream does.
        let too_long = text.len() > self.max_line;
        if self.first {
            self.first = false;
            text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
        }
        if too_long {
            return Some(Line {
                text: &text[..LINE_PREFIX.min(text.len())],
                too_long: true,
            });
        }
        Some(Line {
            text,
            too_long: false,
        })
    }
}

/// Something that went wrong with a log but did not stop the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogError {
    /// The index of the log in the list given to [`run`].
    pub log: usize,
    /// What happened, naming the log.
    pub message: String,
}

/// What [`run`] leaves: each worker's state, and the problems with logs.
pub struct Finished<W> {
    /// The state of each worker thread, as `process` left it.
    pub workers: Vec<W>,
    /// Logs that ended badly (a truncated gzip, a read error): the lines before were processed.
    pub errors: Vec<LogError>,
}

/// Opens a log: the error names the file.
fn open(path: &Path) -> io::Result<File> {
    File::open(path).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("cannot read log '{}': {e}", path.display()),
        )
    })
}

/// Checks every log can be opened, before any output is written.
pub fn check_logs(logs: &[LogPath]) -> io::Result<()> {
    for log in logs {
        if let LogPath::File(p) = log {
            let f = open(p)?;
            if f.metadata()?.is_dir() {
                return Err(io::Error::other(format!(
                    "log '{}' is a directory",
                    p.display()
                )));
            }
        }
    }
    Ok(())
}

/// The total size of the logs that are files (for progress), and whether every log is one.
pub fn total_size(logs: &[LogPath]) -> (u64, bool) {
    let mut total = 0;
    let mut known = true;
    for log in logs {
        match log {
            LogPath::File(p) => total += std::fs::metadata(p).map(|m| m.len()).unwrap_or(0),
            LogPath::Stdin => known = false,
        }
    }
    (total, known)
}

/// Runs the pipeline over `logs` on `config.threads` workers (the calling thread and
/// `config.threads - 1` spawned ones). Each worker makes its state with `init`, then
/// `process` handles one chunk at a time with it; `consume` receives the results in input
/// order on the calling thread, with the number of input bytes each covers. When `consume`
/// fails (a closed pipe), the workers stop and its error is returned.
/// Problems with a log (a truncated gzip, a read error mid-way) are returned in
/// [`Finished::errors`] after everything that could be read was processed; a log that cannot
/// be opened is an error (call [`check_logs`] first to have it before any work is done).
pub fn run<W, R, I, P, C>(
    logs: &[LogPath],
    config: &ReadConfig,
    init: I,
    process: P,
    mut consume: C,
) -> io::Result<Finished<W>>
where
    W: Send,
    R: Send,
    I: Fn() -> W + Sync,
    P: Fn(&mut W, &Chunk<'_>) -> R + Sync,
    C: FnMut(R, u64) -> io::Result<()>,
{
    let threads = config.threads.clamp(1, max_threads());
    if threads == 1 {
        return run_here(logs, config, init, process, consume);
    }
    let ahead = (threads * 4) as u64;
    let source = Mutex::new(Source::new(logs, config));
    let shared = Shared {
        state: Mutex::new(State {
            base: 0,
            reserved: 0,
            done: VecDeque::new(),
            total: None,
            stop: false,
            failure: None,
            panicked: None,
        }),
        ready: Condvar::new(),
        space: Condvar::new(),
    };
    let (workers, consumed) = std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(threads);
        // The calling thread is the last worker (and the consumer).
        for _ in 1..threads {
            // A thread the system refuses (too many, no memory) is not an error: go on with
            // those that started (the calling thread works too).
            match std::thread::Builder::new()
                .spawn_scoped(scope, || work(&shared, &source, ahead, &init, &process))
            {
                Ok(h) => handles.push(h),
                Err(_) => break,
            }
        }
        // A panicking consumer must not leave the workers waiting for room forever.
        let guard = PanicGuard(&shared);
        let (mine, consumed) =
            work_and_consume(&shared, &source, ahead, &init, &process, &mut consume);
        drop(guard);
        if consumed.is_err() {
            shared.lock().stop = true;
            shared.space.notify_all();
        }
        let mut workers: Vec<Option<W>> = handles
            .into_iter()
            .map(|h| match h.join() {
                Ok(w) => Some(w),
                Err(payload) => {
                    shared.lock().panicked = Some(panic_message(&*payload));
                    None
                }
            })
            .collect();
        workers.push(mine);
        (workers, consumed)
    });
    // A consumer error (a broken pipe) explains everything after it: report it first.
    consumed?;
    let mut state = shared.lock();
    if let Some(message) = state.panicked.take() {
        return Err(io::Error::other(format!(
            "a worker thread panicked: {message}"
        )));
    }
    if let Some(e) = state.failure.take() {
        return Err(e);
    }
    let workers = workers.into_iter().flatten().collect();
    let errors = std::mem::take(&mut lock(&source).errors);
    Ok(Finished { workers, errors })
}

/// [`run`] on one thread: the calling thread takes each chunk, processes it and consumes the
/// result, with no worker thread beside it. A panic in `process` is the same error as a
/// worker thread's.
// PERF: with a worker thread, every chunk woke the consumer (a futex wake-up, an
// interrupt to the other core in a VM): about 5% of the samples of a one-thread job. And
// `--threads 1` now takes one core, as it says.
fn run_here<W, R, I, P, C>(
    logs: &[LogPath],
    config: &ReadConfig,
    init: I,
    process: P,
    mut consume: C,
) -> io::Result<Finished<W>>
where
    I: Fn() -> W,
    P: Fn(&mut W, &Chunk<'_>) -> R,
    C: FnMut(R, u64) -> io::Result<()>,
{
    let mut source = Source::new(logs, config);
    let mut state = init();
    while let Some(taken) = source.next()? {
        let chunk = taken.chunk();
        let result =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| process(&mut state, &chunk)))
                .map_err(|payload| {
                    let message = panic_message(&*payload);
                    io::Error::other(format!("a worker thread panicked: {message}"))
                })?;
        let bytes = taken.bytes;
        drop(taken);
        consume(result, bytes)?;
    }
    Ok(Finished {
        workers: vec![state],
        errors: std::mem::take(&mut source.errors),
    })
}

/// The message a panic was raised with.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string())
}

/// The state shared by the workers and the consumer.
struct Shared<R> {
    state: Mutex<State<R>>,
    /// Signalled when the next result in order may be ready, or the run ends.
    ready: Condvar,
    /// Signalled when the consumer made room for more chunks, or the run ends.
    space: Condvar,
}

impl<R> Shared<R> {
    fn lock(&self) -> MutexGuard<'_, State<R>> {
        lock(&self.state)
    }

    /// Stops the run because a worker panicked (with `message`, when it is known), and wakes
    /// every thread that waits.
    fn abort(&self, message: Option<String>) {
        let mut st = self.lock();
        st.stop = true;
        match message {
            Some(m) => st.panicked = Some(m),
            None => {
                st.panicked.get_or_insert_with(String::new);
            }
        }
        drop(st);
        self.ready.notify_all();
        self.space.notify_all();
    }
}

struct State<R> {
    /// The next chunk to hand to the consumer.
    base: u64,
    /// Chunks taken (or about to be taken) by workers.
    reserved: u64,
    /// Results of chunks `base..`, `None` while still being processed.
    done: VecDeque<Option<(R, u64)>>,
    /// The number of chunks, once the input is exhausted.
    total: Option<u64>,
    /// Workers stop taking chunks.
    stop: bool,
    /// A log that could not be opened.
    failure: Option<io::Error>,
    /// A worker panicked (the message).
    panicked: Option<String>,
}

/// Locks, ignoring poisoning (a panicking worker is reported by the run itself).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Stops the run if the worker holding it unwinds.
struct PanicGuard<'a, R>(&'a Shared<R>);

impl<R> Drop for PanicGuard<'_, R> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.abort(None);
        }
    }
}

/// A worker: reserves room, takes the next chunk, processes it, files the result.
fn work<W, R, I, P>(
    shared: &Shared<R>,
    source: &Mutex<Source<'_>>,
    ahead: u64,
    init: &I,
    process: &P,
) -> W
where
    I: Fn() -> W,
    P: Fn(&mut W, &Chunk<'_>) -> R,
{
    let guard = PanicGuard(shared);
    let mut state = init();
    loop {
        {
            let mut st = shared.lock();
            while !st.stop && st.total.is_none() && st.reserved >= st.base + ahead {
                st = shared.space.wait(st).unwrap_or_else(|p| p.into_inner());
            }
            if st.stop || st.total.is_some() {
                break;
            }
            st.reserved += 1;
        }
        if !take_and_process(shared, source, &mut state, process) {
            break;
        }
    }
    drop(guard);
    state
}

/// Takes the next chunk (its room already reserved), processes it and files the result;
/// false when there was none (the input is exhausted, or a log failed).
fn take_and_process<W, R, P>(
    shared: &Shared<R>,
    source: &Mutex<Source<'_>>,
    state: &mut W,
    process: &P,
) -> bool
where
    P: Fn(&mut W, &Chunk<'_>) -> R,
{
    let taken = {
        let mut src = lock(source);
        src.next().map(|t| (t, src.seq))
    };
    match taken {
        Ok((Some(taken), _)) => {
            let chunk = taken.chunk();
            let result = process(state, &chunk);
            let (bytes, seq) = (taken.bytes, chunk.seq);
            drop(taken);
            let mut st = shared.lock();
            let i = (seq - st.base) as usize;
            while st.done.len() <= i {
                st.done.push_back(None);
            }
            st.done[i] = Some((result, bytes));
            drop(st);
            if i == 0 {
                shared.ready.notify_all();
            }
            true
        }
        Ok((None, total)) => {
            shared.lock().total = Some(total);
            shared.ready.notify_all();
            shared.space.notify_all();
            false
        }
        Err(e) => {
            let mut st = shared.lock();
            st.failure.get_or_insert(e);
            st.stop = true;
            drop(st);
            shared.ready.notify_all();
            shared.space.notify_all();
            false
        }
    }
}

/// The calling thread of [`run`]: consumes the results in order as they come, and while
/// there is room ahead, takes chunks and processes them like a worker. Returns its worker
/// state (`None` when its processing panicked: the run then fails) and how consuming went.
// PERF: with a consumer thread of its own beside the workers, every chunk woke it (a futex
// wake-up, and on a machine with as many cores as workers, a worker preempted): 4,000 of
// each on the 1 GB log, two threads, and 3% of the job's samples in the kernel.
fn work_and_consume<W, R, I, P, C>(
    shared: &Shared<R>,
    source: &Mutex<Source<'_>>,
    ahead: u64,
    init: &I,
    process: &P,
    consume: &mut C,
) -> (Option<W>, io::Result<()>)
where
    I: Fn() -> W,
    P: Fn(&mut W, &Chunk<'_>) -> R,
    C: FnMut(R, u64) -> io::Result<()>,
{
    let mut state = init();
    loop {
        // Every result ready, in order.
        loop {
            let next = {
                let mut st = shared.lock();
                if matches!(st.done.front(), Some(Some(_))) {
                    st.base += 1;
                    st.done.pop_front().flatten()
                } else {
                    None
                }
            };
            let Some((result, bytes)) = next else {
                break;
            };
            shared.space.notify_all();
            if let Err(e) = consume(result, bytes) {
                return (Some(state), Err(e));
            }
        }
        // Then a chunk of its own if there is room; else wait for the next result.
        {
            let mut st = shared.lock();
            if st.stop || st.total.is_some_and(|t| st.base >= t) {
                return (Some(state), Ok(()));
            }
            if st.total.is_some() || st.reserved >= st.base + ahead {
                // The chunks before `reserved` are all with the workers (this thread files
                // its own before it comes back here), so the next result comes.
                while !matches!(st.done.front(), Some(Some(_)))
                    && !st.stop
                    && st.total.is_none_or(|t| st.base < t)
                {
                    st = shared.ready.wait(st).unwrap_or_else(|p| p.into_inner());
                }
                continue;
            }
            st.reserved += 1;
        }
        let step = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            take_and_process(shared, source, &mut state, process)
        }));
        if let Err(payload) = step {
            shared.abort(Some(panic_message(&*payload)));
            return (None, Ok(()));
        }
    }
}

/// The bytes of a chunk: a range of a memory map, or a buffer read from a stream.
enum Data {
    Mapped(Arc<memmap2::Mmap>, usize, usize),
    Owned(Vec<u8>),
}

impl Data {
    fn bytes(&self) -> &[u8] {
        match self {
            Data::Mapped(map, start, end) => &map[*start..*end],
            Data::Owned(v) => v,
        }
    }
}

/// A chunk taken from the source.
struct Taken {
    data: Data,
    log: usize,
    first: bool,
    seq: u64,
    too_long: bool,
    max_line: usize,
    /// Bytes of the log this chunk accounts for (for a stream: read since the last chunk,
    /// the skipped part of a long line included).
    bytes: u64,
}

impl Taken {
    /// The chunk as `process` sees it.
    fn chunk(&self) -> Chunk<'_> {
        Chunk {
            data: self.data.bytes(),
            log: self.log,
            first: self.first,
            seq: self.seq,
            too_long: self.too_long,
            max_line: self.max_line,
        }
    }
}

/// The log being read.
enum Current {
    Mapped { map: Arc<memmap2::Mmap>, pos: usize },
    Stream(Stream),
}

/// A log read as a stream (gzip, stdin, or a file that is not mapped), cut into pieces of
/// whole lines.
struct Stream {
    reader: Box<dyn Read + Send>,
    name: String,
    /// The start of a line whose end has not been read yet (it holds no line end).
    carry: Vec<u8>,
    /// Bytes read so far.
    offset: u64,
    /// Bytes read since the last piece was handed out.
    unaccounted: u64,
    /// The last piece ended with a CR at the end of what was read: an LF read next is the
    /// second half of a CR LF.
    after_cr: bool,
    /// Skipping the rest of a line longer than the limit.
    skipping: bool,
    /// The stream has ended (or failed).
    done: bool,
    /// A line over the limit cut by a read error, handed out after the lines before it.
    cut_long: Option<Vec<u8>>,
}

/// What a stream hands out.
enum Piece {
    /// Whole lines (the last one may lack its line end at the end of the stream).
    Lines(Vec<u8>),
    /// The first bytes of a line longer than the limit.
    TooLong(Vec<u8>),
}

impl Stream {
    fn new(reader: Box<dyn Read + Send>, name: String) -> Stream {
        Stream {
            reader,
            name,
            carry: Vec::new(),
            offset: 0,
            unaccounted: 0,
            after_cr: false,
            skipping: false,
            done: false,
            cut_long: None,
        }
    }

    /// The next piece: up to `size` bytes read after the carried-over start of a line, cut
    /// after the last line end (the rest is carried over). Only the bytes just read are
    /// searched, so a line without an end costs one pass. A line that grows past
    /// `max_line` is handed out as its first [`LINE_PREFIX`] bytes and the rest of it is
    /// skipped. `None` at the end; a read error ends the stream after the complete lines
    /// before it (the cut line is dropped) and is returned as a message.
    fn next(&mut self, size: usize, max_line: usize) -> (Option<Piece>, Option<String>) {
        if let Some(long) = self.cut_long.take() {
            return (Some(Piece::TooLong(long)), None);
        }
        while !self.done {
            let mut buf = std::mem::take(&mut self.carry);
            let old = buf.len();
            buf.resize(old + size, 0);
            let (n, failure) = read_full(&mut *self.reader, &mut buf[old..]);
            buf.truncate(old + n);
            self.offset += n as u64;
            self.unaccounted += n as u64;
            let eof = n < size;
            let mut new = old;
            if self.after_cr && n > 0 {
                self.after_cr = false;
                if buf[old] == b'\n' {
                    // The LF of a CR LF cut between two reads: the CR ended the line.
                    buf.remove(old);
                }
            }
            if eof {
                self.done = true;
            }
            let cut_message = |cut: usize, offset: u64, name: &str| {
                failure
                    .as_ref()
                    .map(|e| describe_read_error(name, e, offset, cut))
            };
            if self.skipping {
                // Drop everything up to the end of the long line.
                let Some(i) = memchr::memchr2(b'\n', b'\r', &buf) else {
                    if eof {
                        return (None, cut_message(0, self.offset, &self.name));
                    }
                    continue;
                };
                self.skipping = false;
                let mut next = i + 1;
                if buf[i] == b'\r' {
                    if next < buf.len() {
                        next += usize::from(buf[next] == b'\n');
                    } else if !eof {
                        self.after_cr = true;
                    }
                }
                buf.drain(..next);
                new = 0;
                if buf.is_empty() && !eof {
                    continue;
                }
            }
            match memchr::memrchr2(b'\n', b'\r', &buf[new..]) {
                Some(j) => {
                    let end = new + j + 1;
                    if buf[end - 1] == b'\r' && end == buf.len() && !eof {
                        self.after_cr = true;
                    }
                    let mut rest = buf.split_off(end);
                    if eof {
                        // The end: an unterminated last line is a line, unless a read
                        // error cut it (a cut line already over the limit is handed out as
                        // too long next, as it would have been had the error come later).
                        if failure.is_none() {
                            buf.extend_from_slice(&rest);
                            return (Some(Piece::Lines(buf)), None);
                        }
                        if rest.len() > max_line {
                            rest.truncate(LINE_PREFIX + 3);
                            self.cut_long = Some(rest);
                            return (
                                Some(Piece::Lines(buf)),
                                cut_message(0, self.offset, &self.name),
                            );
                        }
                        let message = cut_message(rest.len(), self.offset, &self.name);
                        return (Some(Piece::Lines(buf)), message);
                    }
                    self.carry = rest;
                    return (Some(Piece::Lines(buf)), None);
                }
                // Past the limit, once the prefix kept is whole (or at the end).
                None if buf.len() > max_line
                    && (eof || buf.len() > max_line.max(LINE_PREFIX + 3)) =>
                {
                    // Issue 16.3: a line longer than the limit is not kept (three bytes more
                    // than the prefix, for a byte-order mark that `Lines` drops).
                    buf.truncate(LINE_PREFIX + 3);
                    self.skipping = !eof;
                    return (
                        Some(Piece::TooLong(buf)),
                        cut_message(0, self.offset, &self.name),
                    );
                }
                None if eof => {
                    let message = cut_message(buf.len(), self.offset, &self.name);
                    if failure.is_some() || buf.is_empty() {
                        return (None, message);
                    }
                    return (Some(Piece::Lines(buf)), message);
                }
                None => self.carry = buf,
            }
        }
        (None, None)
    }
}

/// The logs, read one after the other, cut into chunks.
struct Source<'l> {
    logs: &'l [LogPath],
    chunk_size: usize,
    mmap: bool,
    threads: usize,
    max_line: usize,
    /// The next log to open.
    next_log: usize,
    /// The log being read and its index.
    current: Option<(usize, Current)>,
    /// The next chunk is the first of its log.
    first: bool,
    /// Chunks handed out so far.
    seq: u64,
    errors: Vec<LogError>,
}

impl<'l> Source<'l> {
    fn new(logs: &'l [LogPath], config: &ReadConfig) -> Source<'l> {
        Source {
            logs,
            chunk_size: config.chunk_size.max(1),
            mmap: config.mmap,
            threads: config.threads.clamp(1, max_threads()),
            max_line: config.max_line.max(1),
            next_log: 0,
            current: None,
            first: true,
            seq: 0,
            errors: Vec::new(),
        }
    }

    /// The next chunk of the input, `None` at its end. An error only when a log cannot be
    /// opened; a log that ends badly is recorded in `errors` and reading goes on.
    fn next(&mut self) -> io::Result<Option<Taken>> {
        loop {
            if self.current.is_none() {
                if self.next_log == self.logs.len() {
                    return Ok(None);
                }
                let index = self.next_log;
                self.next_log += 1;
                self.current = Some((index, self.open(&self.logs[index])?));
                self.first = true;
            }
            let Some((log, current)) = self.current.as_mut() else {
                continue;
            };
            let log = *log;
            let (data, too_long, bytes) = match current {
                Current::Mapped { map, pos } => {
                    let len = map.len();
                    if *pos >= len {
                        self.current = None;
                        continue;
                    }
                    let start = *pos;
                    let end = mapped_chunk_end(map, start, self.chunk_size, self.threads);
                    *pos = end;
                    (
                        Data::Mapped(map.clone(), start, end),
                        false,
                        (end - start) as u64,
                    )
                }
                Current::Stream(stream) => {
                    let (piece, failure) = stream.next(self.chunk_size, self.max_line);
                    if let Some(message) = failure {
                        self.errors.push(LogError { log, message });
                    }
                    let bytes = std::mem::take(&mut stream.unaccounted);
                    match piece {
                        Some(Piece::Lines(v)) => (Data::Owned(v), false, bytes),
                        Some(Piece::TooLong(v)) => (Data::Owned(v), true, bytes),
                        // The end of a long line skipped at the end of the stream: an empty
                        // chunk, so that its bytes are counted.
                        None if bytes > 0 => {
                            self.current = None;
                            (Data::Owned(Vec::new()), false, bytes)
                        }
                        None => {
                            self.current = None;
                            continue;
                        }
                    }
                }
            };
            let taken = Taken {
                data,
                log,
                first: self.first,
                seq: self.seq,
                too_long,
                max_line: self.max_line,
                bytes,
            };
            self.first = false;
            self.seq += 1;
            return Ok(Some(taken));
        }
    }

    /// Opens a log: a memory map for a plain file (unless disabled or impossible), else a
    /// stream (gzip decoded).
    fn open(&self, log: &LogPath) -> io::Result<Current> {
        let mut raw: Box<dyn Read + Send> = match log {
            LogPath::Stdin => Box::new(io::stdin()),
            LogPath::File(path) => Box::new(open(path)?),
        };
        let mut magic = [0u8; 2];
        let (n, failure) = read_full(&mut *raw, &mut magic);
        if let Some(e) = failure {
            return Err(io::Error::new(
                e.kind(),
                format!("cannot read log '{}': {e}", log.display()),
            ));
        }
        let gzip = n == 2 && magic == [0x1f, 0x8b];
        if let (false, true, LogPath::File(path)) = (gzip, self.mmap, log) {
            if let Some(map) = map_file(path)? {
                return Ok(Current::Mapped {
                    map: Arc::new(map),
                    pos: 0,
                });
            }
        }
        let head = io::Cursor::new(magic[..n].to_vec());
        let reader: Box<dyn Read + Send> = if gzip {
            Box::new(flate2::read::MultiGzDecoder::new(
                io::BufReader::with_capacity(256 * 1024, head.chain(raw)),
            ))
        } else {
            Box::new(head.chain(raw))
        };
        Ok(Current::Stream(Stream::new(reader, log.display())))
    }
}

/// Where the chunk that starts at `start` ends: at the first newline after the target size,
/// which is `chunk_size`, or less towards the end of the map (a quarter of what is left per
/// thread, but at least 64 KiB) so that the last chunks are small and no thread is left
/// working alone at the end.
fn mapped_chunk_end(map: &[u8], start: usize, chunk_size: usize, threads: usize) -> usize {
    let remaining = map.len() - start;
    let guided = (remaining / (threads * 4)).max(MIN_CHUNK.min(chunk_size));
    let size = chunk_size.min(guided).max(1);
    let target = (start + size).min(map.len());
    match memchr::memchr2(b'\n', b'\r', &map[target - 1..]) {
        // A CR LF stays in one chunk.
        Some(i) if map[target - 1 + i] == b'\r' && map.get(target + i) == Some(&b'\n') => {
            target + i + 1
        }
        Some(i) => target + i,
        None => map.len(),
    }
}

/// Maps a plain file. `Ok(None)` when mapping is not possible (an empty file, a special file),
/// in which case the caller reads it as a stream.
fn map_file(path: &Path) -> io::Result<Option<memmap2::Mmap>> {
    let file = open(path)?;
    if file.metadata()?.len() == 0 {
        return Ok(None);
    }
    // SAFETY: `Mmap::map` is unsafe because the mapping aliases a file that another process
    // could modify or truncate while we read it, which would change the bytes under a `&[u8]`
    // (or raise SIGBUS past a truncated end). We only ever read the mapping, and crawl logs
    // given to `classify` are not modified during a run; this is the risk every mmap-based
    // tool (ripgrep included) documents, and `ReadConfig::mmap = false` (`--no-mmap`) reads
    // the file instead. The `classify_mmap_and_read_agree` CLI test and this module's
    // `chunks_reassemble_in_order` test check that both paths give identical output.
    match unsafe { memmap2::Mmap::map(&file) } {
        Ok(map) => Ok(Some(map)),
        Err(_) => Ok(None),
    }
}

/// Reads until `buf` is full, the input ends or an error comes; returns the bytes read (the
/// bytes read before an error are kept: issue 16.2) and the error.
fn read_full(r: &mut dyn Read, buf: &mut [u8]) -> (usize, Option<io::Error>) {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return (n, Some(e)),
        }
    }
    (n, None)
}

/// The message of a stream that ended badly after `offset` bytes, `cut` of which (the start
/// of a line whose end never came) were dropped.
fn describe_read_error(name: &str, e: &io::Error, offset: u64, cut: usize) -> String {
    let what = if e.kind() == io::ErrorKind::UnexpectedEof {
        "truncated gzip stream".to_string()
    } else {
        format!("read error ({e})")
    };
    let dropped = if cut > 0 {
        format!("; the line it cuts ({cut} bytes) was dropped")
    } else {
        String::new()
    };
    format!(
        "{name}: {what} after {offset} bytes of text: every complete line before it was \
         read{dropped}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(logs: &[LogPath], chunk: usize, mmap: bool, threads: usize) -> (Vec<u8>, usize) {
        let config = ReadConfig {
            chunk_size: chunk,
            mmap,
            threads,
            max_line: DEFAULT_MAX_LINE,
        };
        let mut out = Vec::new();
        let mut n = 0;
        let mut next_seq = 0;
        let mut total = 0;
        let finished = run(
            logs,
            &config,
            || 0usize,
            |count, c| {
                *count += 1;
                (c.seq, c.data.to_vec())
            },
            |(seq, r), bytes| {
                assert_eq!(seq, next_seq, "results come in input order");
                total += bytes;
                next_seq += 1;
                out.extend_from_slice(&r);
                n += 1;
                Ok(())
            },
        )
        .unwrap();
        // Every byte read is accounted for once (a stream's chunk may carry bytes read for
        // the one before).
        assert_eq!(total, out.len() as u64);
        assert!(finished.errors.is_empty());
        assert_eq!(finished.workers.len(), threads);
        assert_eq!(finished.workers.iter().sum::<usize>(), n);
        (out, n)
    }

    #[test]
    fn lines_match_a_byte_reading() {
        // Random chunks of empty, short and long lines, LF, CR LF and lone CR, with and
        // without a final line end.
        let mut x: u64 = 5;
        for _ in 0..3_000 {
            let mut data = Vec::new();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let parts = x % 12;
            for k in 0..parts {
                let r = (x >> (k * 5)) as usize;
                data.extend(std::iter::repeat_n(
                    b'a' + (k as u8),
                    [0, 1, 5, 63, 64, 65, 130][r % 7],
                ));
                data.extend_from_slice(
                    [&b"\n"[..], b"\r\n", b"\r", b"", b"\n\n", b"\r\r\n"][(r / 7) % 6],
                );
            }
            let want: Vec<&[u8]> = {
                let (mut out, mut rest) = (Vec::new(), &data[..]);
                while !rest.is_empty() {
                    let (line, next) = match rest.iter().position(|&b| b == b'\n' || b == b'\r') {
                        Some(i) if rest[i] == b'\r' && rest.get(i + 1) == Some(&b'\n') => {
                            (&rest[..i], i + 2)
                        }
                        Some(i) => (&rest[..i], i + 1),
                        None => (rest, rest.len()),
                    };
                    out.push(line);
                    rest = &rest[next..];
                }
                out
            };
            let got: Vec<&[u8]> = Chunk::new(&data, false).lines().map(|l| l.text).collect();
            assert_eq!(got, want, "{:?}", String::from_utf8_lossy(&data));
        }
    }

    #[test]
    fn chunks_reassemble_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("log.txt");
        let mut text = Vec::new();
        for i in 0..5000 {
            text.extend_from_slice(format!("https://h{}.example/{i}\n", i % 7).as_bytes());
        }
        text.extend_from_slice(b"no-final-newline");
        std::fs::write(&p, &text).unwrap();
        let gz = dir.path().join("log.gz");
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut enc, &text).unwrap();
        std::fs::write(&gz, enc.finish().unwrap()).unwrap();
        for chunk in [1, 7, 100, 4096, 1 << 20] {
            for mmap in [true, false] {
                for threads in [1, 2, 4] {
                    let (out, n) = collect(&[LogPath::File(p.clone())], chunk, mmap, threads);
                    assert_eq!(out, text, "chunk {chunk} mmap {mmap} threads {threads}");
                    assert!(chunk > text.len() || n > 1);
                    let (out, _) = collect(&[LogPath::File(gz.clone())], chunk, mmap, threads);
                    assert_eq!(out, text, "gzip chunk {chunk} threads {threads}");
                }
            }
        }
        // Several logs, one after the other; each first chunk is marked.
        let config = ReadConfig {
            chunk_size: 1000,
            mmap: true,
            threads: 2,
            max_line: DEFAULT_MAX_LINE,
        };
        let logs = [LogPath::File(p.clone()), LogPath::File(gz.clone())];
        let mut firsts = Vec::new();
        run(
            &logs,
            &config,
            || (),
            |_, c| (c.log, c.first),
            |(log, first), _| {
                if first {
                    firsts.push(log);
                }
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(firsts, vec![0, 1]);
    }

    /// The end of a memory-mapped file is cut into smaller chunks, so that no thread works
    /// alone on a large last chunk; the chunk size is never exceeded (but for the line that
    /// crosses it).
    #[test]
    fn mapped_chunks_shrink_towards_the_end() {
        let line = b"https://example.com/some/path?query=1\n";
        let data: Vec<u8> = line
            .iter()
            .copied()
            .cycle()
            .take(line.len() * 200_000)
            .collect();
        let chunk_size = 1 << 20;
        let mut sizes = Vec::new();
        let mut start = 0;
        while start < data.len() {
            let end = mapped_chunk_end(&data, start, chunk_size, 2);
            assert_eq!(data[end - 1], b'\n');
            sizes.push(end - start);
            start = end;
        }
        assert!(
            sizes.iter().all(|&s| s <= chunk_size + line.len()),
            "{sizes:?}"
        );
        assert!(sizes[0] > 1 << 19, "{sizes:?}");
        let last = sizes[sizes.len() - 2];
        assert!(last < 80 << 10, "the last chunks are small: {sizes:?}");
    }

    /// A consumer error stops the workers and is returned, with no deadlock, whatever the
    /// thread count.
    #[test]
    fn consumer_error_stops_the_run() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("log.txt");
        std::fs::write(&p, "x\n".repeat(100_000)).unwrap();
        for threads in [1, 2, 4] {
            let config = ReadConfig {
                chunk_size: 100,
                mmap: true,
                threads,
                max_line: DEFAULT_MAX_LINE,
            };
            let mut seen = 0;
            let result = run(
                &[LogPath::File(p.clone())],
                &config,
                || (),
                |_, c| c.data.len(),
                |_, _| {
                    seen += 1;
                    if seen == 3 {
                        Err(io::Error::from(io::ErrorKind::BrokenPipe))
                    } else {
                        Ok(())
                    }
                },
            );
            assert_eq!(
                result.err().map(|e| e.kind()),
                Some(io::ErrorKind::BrokenPipe)
            );
            assert_eq!(seen, 3);
        }
    }

    /// Runs 10,000 lines in chunks of 100 bytes on `threads` threads with `process`; returns
    /// the run's error message (empty when it succeeded) and the chunks consumed. Panics when
    /// they were not consumed in order.
    fn run_panicking(
        threads: usize,
        process: impl Fn(&Chunk<'_>) -> u64 + Sync,
    ) -> (String, Vec<u64>) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("log.txt");
        std::fs::write(&p, "x\n".repeat(10_000)).unwrap();
        let config = ReadConfig {
            chunk_size: 100,
            mmap: true,
            threads,
            max_line: DEFAULT_MAX_LINE,
        };
        let mut consumed = Vec::new();
        let result = run(
            &[LogPath::File(p)],
            &config,
            || (),
            |_, c| process(c),
            |seq, _| {
                consumed.push(seq);
                Ok(())
            },
        );
        let err = result.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(consumed.iter().copied().eq(0..consumed.len() as u64));
        (err, consumed)
    }

    /// A panicking worker ends the run with an error instead of a hang, on worker threads
    /// or on the calling thread alone; the chunks before it were consumed in order.
    #[test]
    fn worker_panic_is_an_error() {
        for threads in [1, 2] {
            let (err, consumed) = run_panicking(threads, |c| {
                assert!(c.seq != 5, "chunk 5 is poisoned");
                c.seq
            });
            assert!(
                err.contains("panicked: chunk 5 is poisoned"),
                "{threads}: {err}"
            );
            if threads == 1 {
                assert_eq!(consumed, [0, 1, 2, 3, 4]);
            }
        }
    }

    /// On two threads or more the calling thread processes chunks too: a panic there is the
    /// same error, with no hang, and every result before it was consumed in order. (The
    /// spawned worker is slowed down, so that the calling thread surely takes a chunk.)
    #[test]
    fn a_panic_on_the_calling_thread_is_an_error() {
        let caller = std::thread::current().id();
        for threads in [2, 3] {
            let (err, _) = run_panicking(threads, |c| {
                if std::thread::current().id() == caller {
                    panic!("the calling thread's chunk {}", c.seq);
                }
                std::thread::sleep(std::time::Duration::from_millis(2));
                c.seq
            });
            assert!(
                err.contains("panicked: the calling thread's chunk"),
                "{threads}: {err}"
            );
        }
    }

    /// Lines as (text, too long), the log errors, the bytes accounted for.
    type ReadLines = (Vec<(Vec<u8>, bool)>, Vec<LogError>, u64);

    /// The lines of `logs` as `run` hands them out: (text, too long), and the log errors.
    fn lines_of(
        logs: &[LogPath],
        chunk_size: usize,
        mmap: bool,
        threads: usize,
        max_line: usize,
    ) -> ReadLines {
        let config = ReadConfig {
            chunk_size,
            mmap,
            threads,
            max_line,
        };
        let mut lines = Vec::new();
        let mut bytes = 0;
        let finished = run(
            logs,
            &config,
            || (),
            |_, c| {
                assert!(
                    c.data.len() <= chunk_size + max_line.max(LINE_PREFIX + 3) + 2
                        || (mmap && !c.too_long),
                    "a stream chunk is bounded: {} bytes",
                    c.data.len()
                );
                c.lines()
                    .map(|l| (l.text.to_vec(), l.too_long))
                    .collect::<Vec<_>>()
            },
            |v, b| {
                lines.extend(v);
                bytes += b;
                Ok(())
            },
        )
        .unwrap();
        (lines, finished.errors, bytes)
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut enc, data).unwrap();
        enc.finish().unwrap()
    }

    /// Issue 16.2: a truncated gzip loses no complete line: every line before the cut is
    /// handed out (up to 1 MiB of them used to be dropped with the read that failed), the
    /// cut line is not, and the message says so.
    #[test]
    fn issue16_truncated_gzip_keeps_lines() {
        let dir = tempfile::tempdir().unwrap();
        let mut text = Vec::new();
        let mut i = 0u64;
        while text.len() < 3 << 20 {
            // Varied lines, so that the compressed stream is long enough to cut anywhere.
            text.extend_from_slice(
                format!(
                    "https://h{}.example/{}/{}\n",
                    i % 97,
                    i,
                    i * 7919 % 1_000_003
                )
                .as_bytes(),
            );
            i += 1;
        }
        let zipped = gzip(&text);
        for cut in [zipped.len() / 3, zipped.len() / 2, zipped.len() - 20] {
            let p = dir.path().join(format!("cut{cut}.gz"));
            std::fs::write(&p, &zipped[..cut]).unwrap();
            // What a decoder gets out of the cut stream before it fails.
            let mut decoded = Vec::new();
            let mut d = flate2::read::MultiGzDecoder::new(&zipped[..cut]);
            let mut buf = [0u8; 4096];
            loop {
                match std::io::Read::read(&mut d, &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => decoded.extend_from_slice(&buf[..n]),
                }
            }
            let complete = memchr::memrchr(b'\n', &decoded).map_or(0, |i| i + 1);
            let want: Vec<(Vec<u8>, bool)> = decoded[..complete]
                .split(|&b| b == b'\n')
                .take(decoded[..complete].iter().filter(|&&b| b == b'\n').count())
                .map(|l| (l.to_vec(), false))
                .collect();
            assert!(want.len() > 1000, "the cut leaves lines: {}", want.len());
            for threads in [1, 2] {
                let (got, errors, _) =
                    lines_of(&[LogPath::File(p.clone())], 1 << 20, true, threads, 1 << 20);
                assert_eq!(got.len(), want.len(), "cut {cut}, threads {threads}");
                assert!(got == want, "cut {cut}: the lines differ");
                assert_eq!(errors.len(), 1, "{errors:?}");
                let message = &errors[0].message;
                assert!(message.contains("truncated gzip stream"), "{message}");
                assert!(
                    message.contains("every complete line before it was read"),
                    "{message}"
                );
                let dropped = decoded.len() - complete;
                if dropped > 0 {
                    assert!(
                        message
                            .contains(&format!("the line it cuts ({dropped} bytes) was dropped")),
                        "{message}"
                    );
                }
            }
        }
    }

    /// Issue 16.3: a line longer than the limit is handed out as its first bytes, marked,
    /// and reading goes on at the next line; a stream never holds more than a chunk and a
    /// line (checked in `lines_of`), whether plain, gzip or mapped.
    #[test]
    fn issue16_long_line_is_cut_and_skipped_to_the_next_line() {
        let dir = tempfile::tempdir().unwrap();
        let mut text = b"https://a.example/1\n".to_vec();
        text.extend(std::iter::repeat_n(b'x', 3 << 20));
        text.extend_from_slice(b"\nhttps://a.example/2\r");
        text.extend(std::iter::repeat_n(b'y', 5000));
        text.extend_from_slice(b"\r\nhttps://a.example/3");
        let plain = dir.path().join("long.txt");
        std::fs::write(&plain, &text).unwrap();
        let zipped = dir.path().join("long.gz");
        std::fs::write(&zipped, gzip(&text)).unwrap();
        let mut prefix_x = vec![b'x'; LINE_PREFIX];
        let want = vec![
            (b"https://a.example/1".to_vec(), false),
            (std::mem::take(&mut prefix_x), true),
            (b"https://a.example/2".to_vec(), false),
            (vec![b'y'; LINE_PREFIX], true),
            (b"https://a.example/3".to_vec(), false),
        ];
        for (path, mmap) in [(&plain, true), (&plain, false), (&zipped, true)] {
            for chunk in [1000, 4096, 1 << 20] {
                for threads in [1, 2] {
                    let (got, errors, bytes) =
                        lines_of(&[LogPath::File(path.clone())], chunk, mmap, threads, 4000);
                    assert_eq!(got, want, "{path:?} mmap {mmap} chunk {chunk}");
                    assert!(errors.is_empty());
                    assert_eq!(bytes, text.len() as u64, "skipped bytes are counted");
                }
            }
        }
        // A log that is one long line with a byte-order mark: the same line and the same
        // byte count from a map and from a stream that ends while skipping it.
        let only = dir.path().join("only.txt");
        let mut one = b"\xEF\xBB\xBF".to_vec();
        one.extend(std::iter::repeat_n(b'z', 5000));
        std::fs::write(&only, &one).unwrap();
        for mmap in [true, false] {
            for max_line in [4999, 5001, 5003] {
                let (got, _, bytes) =
                    lines_of(&[LogPath::File(only.clone())], 1000, mmap, 1, max_line);
                let want = if max_line < one.len() {
                    vec![(vec![b'z'; LINE_PREFIX], true)]
                } else {
                    vec![(vec![b'z'; 5000], false)]
                };
                assert_eq!(got, want, "mmap {mmap} limit {max_line}");
                assert_eq!(bytes, one.len() as u64, "mmap {mmap} limit {max_line}");
            }
        }
        // With a limit above the lines, nothing is cut.
        let (got, _, _) = lines_of(&[LogPath::File(plain)], 4096, false, 1, 4 << 20);
        assert!(got.iter().all(|(_, long)| !long));
        assert_eq!(got[1].0.len(), 3 << 20);
    }

    /// Issue 16.6: a lone CR ends a line, as LF and CR LF do, however the input is cut; a
    /// CR LF cut between two chunks is one line end.
    #[test]
    fn issue16_lone_cr_ends_a_line() {
        let dir = tempfile::tempdir().unwrap();
        let text = b"\xEF\xBB\xBFhttps://a/1\rhttps://a/2\r\nhttps://a/3\n\rhttps://a/4\r\r\nlast";
        let want: Vec<(Vec<u8>, bool)> = [
            &b"https://a/1"[..],
            b"https://a/2",
            b"https://a/3",
            b"",
            b"https://a/4",
            b"",
            b"last",
        ]
        .iter()
        .map(|l| (l.to_vec(), false))
        .collect();
        let plain = dir.path().join("cr.txt");
        std::fs::write(&plain, text).unwrap();
        let zipped = dir.path().join("cr.gz");
        std::fs::write(&zipped, gzip(text)).unwrap();
        for chunk in 1..=text.len() + 1 {
            for (path, mmap) in [(&plain, true), (&plain, false), (&zipped, true)] {
                let (got, _, _) = lines_of(&[LogPath::File(path.clone())], chunk, mmap, 2, 100);
                assert_eq!(got, want, "chunk {chunk} mmap {mmap} {path:?}");
            }
        }
    }

    /// `--threads 20000` runs as many as the cap allows instead of exhausting the machine.
    #[test]
    fn issue16_threads_are_capped() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("log.txt");
        std::fs::write(&p, "https://a/\n".repeat(1000)).unwrap();
        let (got, _, _) = lines_of(&[LogPath::File(p)], 100, true, 20_000, 100);
        assert_eq!(got.len(), 1000);
        let config = ReadConfig {
            threads: 20_000,
            ..ReadConfig::default()
        };
        let finished = run(&[], &config, || (), |_, _| (), |_, _| Ok(())).unwrap();
        assert_eq!(finished.workers.len(), max_threads());
    }

    /// Found by the `reader` fuzz target: with chunks smaller than the kept prefix, a long
    /// line kept fewer than 256 bytes from a stream (what the first read held) and 256 from a
    /// map; and a line over the limit that ends within the prefix is whole in both.
    #[test]
    fn issue16_long_line_prefix_does_not_depend_on_the_chunk_size() {
        let dir = tempfile::tempdir().unwrap();
        let mut text = vec![b'q'; 300];
        text.extend_from_slice(b"\n");
        text.extend(std::iter::repeat_n(b'r', 100));
        text.extend_from_slice(b"\nend");
        let p = dir.path().join("log.txt");
        std::fs::write(&p, &text).unwrap();
        let want = vec![
            (vec![b'q'; LINE_PREFIX], true),
            (vec![b'r'; 100], true),
            (b"end".to_vec(), false),
        ];
        for chunk in [1, 7, 117, 255, 256, 4096] {
            for mmap in [true, false] {
                let (got, _, bytes) = lines_of(&[LogPath::File(p.clone())], chunk, mmap, 1, 48);
                assert_eq!(got, want, "chunk {chunk} mmap {mmap}");
                assert_eq!(bytes, text.len() as u64);
            }
        }
    }

    /// A reader that gives `data`, then fails.
    struct Failing(io::Cursor<Vec<u8>>);

    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match self.0.read(buf)? {
                0 => Err(io::Error::from(io::ErrorKind::UnexpectedEof)),
                n => Ok(n),
            }
        }
    }

    /// Found by the `reader` fuzz target: when the read that fails also ends a line, a cut
    /// line already over the limit is still handed out as too long (as it is when the error
    /// comes in a later read), after the lines before it; a shorter cut line is dropped.
    #[test]
    fn issue16_cut_line_over_the_limit_is_too_long_whichever_read_fails() {
        for (tail, want_long) in [(100, true), (40, false)] {
            let mut data = b"a\n".to_vec();
            data.extend(std::iter::repeat_n(b'x', tail));
            let mut stream = Stream::new(Box::new(Failing(io::Cursor::new(data))), "t".into());
            let (piece, message) = stream.next(4096, 48);
            assert!(matches!(piece, Some(Piece::Lines(ref v)) if v == b"a\n"));
            let message = message.unwrap_or_default();
            assert!(message.contains("truncated gzip stream"), "{message}");
            assert_eq!(message.contains("was dropped"), !want_long, "{message}");
            let (piece, _) = stream.next(4096, 48);
            match piece {
                Some(Piece::TooLong(v)) => assert!(want_long && v == vec![b'x'; tail]),
                None => assert!(!want_long),
                Some(Piece::Lines(_)) => panic!("a cut line is not a line"),
            }
            assert!(stream.next(4096, 48).0.is_none());
        }
    }
}
