//! Reading logs: chunks cut at line boundaries, processed on worker threads, results handed
//! out in input order.
//!
//! Plain files are memory-mapped and cut in place; gzip files (detected by magic bytes, any
//! number of members) and stdin are read by whichever worker takes the next chunk, which fills
//! a buffer and carries the incomplete last line over to the next chunk, so every source feeds
//! the same pipeline. This is the only place where logs are read and cut into lines.
//!
//! Workers pull chunks one at a time as they finish the previous one (no window barrier, so
//! no core waits for the slowest chunk of a window), and at most `4 × threads` chunks are
//! ahead of the consumer, which runs on the calling thread and receives the results in input
//! order. A memory-mapped file is cut into chunks of at most [`ReadConfig::chunk_size`] bytes,
//! smaller towards the end of the file (a quarter of what is left per thread, down to
//! 64 KiB), so that both cores stay busy until the last line.

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
    /// Worker threads (at least 1).
    pub threads: usize,
}

impl Default for ReadConfig {
    /// 1 MiB chunks, memory-mapped, one thread per core.
    fn default() -> ReadConfig {
        ReadConfig {
            chunk_size: 1 << 20,
            mmap: true,
            threads: default_threads(),
        }
    }
}

/// One thread per core (1 when that cannot be told).
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The smallest chunk the end-of-file split goes down to (unless the chunk size is smaller).
const MIN_CHUNK: usize = 64 << 10;

/// One chunk of a log: whole lines (the last may lack its newline at end of input).
pub struct Chunk<'a> {
    /// The bytes of the chunk.
    pub data: &'a [u8],
    /// Index of the log in the list given to [`run`].
    pub log: usize,
    /// True for the first chunk of a log (where a byte-order mark may sit).
    pub first: bool,
    /// The chunk's position in the input, over all logs (0, 1, 2, ...).
    pub seq: u64,
}

/// Something that went wrong with a log but did not stop the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogError {
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

/// Runs the pipeline over `logs` on `config.threads` worker threads. Each worker makes its
/// state with `init`, then `process` handles one chunk at a time with it; `consume` receives
/// the results in input order on the calling thread, with the number of input bytes each
/// covers. When `consume` fails (a closed pipe), the workers stop and its error is returned.
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
    let threads = config.threads.max(1);
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
        let handles: Vec<_> = (0..threads)
            .map(|_| scope.spawn(|| work(&shared, &source, ahead, &init, &process)))
            .collect();
        let consumed = consume_in_order(&shared, &mut consume);
        if consumed.is_err() {
            shared.lock().stop = true;
            shared.space.notify_all();
        }
        let workers: Vec<Option<W>> = handles
            .into_iter()
            .map(|h| match h.join() {
                Ok(w) => Some(w),
                Err(payload) => {
                    let message = payload
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| payload.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "no message".to_string());
                    shared.lock().panicked = Some(message);
                    None
                }
            })
            .collect();
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
            let mut st = self.0.lock();
            st.stop = true;
            st.panicked.get_or_insert_with(String::new);
            drop(st);
            self.0.ready.notify_all();
            self.0.space.notify_all();
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
        let taken = {
            let mut src = lock(source);
            src.next().map(|t| (t, src.seq))
        };
        match taken {
            Ok((Some(taken), _)) => {
                let chunk = Chunk {
                    data: taken.data.bytes(),
                    log: taken.log,
                    first: taken.first,
                    seq: taken.seq,
                };
                let result = process(&mut state, &chunk);
                let (bytes, seq) = (chunk.data.len() as u64, chunk.seq);
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
            }
            Ok((None, total)) => {
                shared.lock().total = Some(total);
                shared.ready.notify_all();
                shared.space.notify_all();
                break;
            }
            Err(e) => {
                let mut st = shared.lock();
                st.failure.get_or_insert(e);
                st.stop = true;
                drop(st);
                shared.ready.notify_all();
                shared.space.notify_all();
                break;
            }
        }
    }
    drop(guard);
    state
}

/// The consumer: hands results to `consume` in input order until the input is exhausted or
/// the run stops.
fn consume_in_order<R, C>(shared: &Shared<R>, consume: &mut C) -> io::Result<()>
where
    C: FnMut(R, u64) -> io::Result<()>,
{
    loop {
        let next = {
            let mut st = shared.lock();
            loop {
                if matches!(st.done.front(), Some(Some(_))) {
                    let item = st.done.pop_front().flatten();
                    st.base += 1;
                    break item;
                }
                if st.stop || st.total.is_some_and(|t| st.base >= t) {
                    break None;
                }
                st = shared.ready.wait(st).unwrap_or_else(|p| p.into_inner());
            }
        };
        let Some((result, bytes)) = next else {
            return Ok(());
        };
        shared.space.notify_all();
        consume(result, bytes)?;
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
}

/// The log being read.
enum Current {
    Mapped {
        map: Arc<memmap2::Mmap>,
        pos: usize,
    },
    Stream {
        reader: Box<dyn Read + Send>,
        carry: Vec<u8>,
        name: String,
    },
}

/// The logs, read one after the other, cut into chunks.
struct Source<'l> {
    logs: &'l [LogPath],
    chunk_size: usize,
    mmap: bool,
    threads: usize,
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
            threads: config.threads.max(1),
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
            let data = match current {
                Current::Mapped { map, pos } => {
                    let len = map.len();
                    if *pos >= len {
                        None
                    } else {
                        let start = *pos;
                        let end = mapped_chunk_end(map, start, self.chunk_size, self.threads);
                        *pos = end;
                        Some(Data::Mapped(map.clone(), start, end))
                    }
                }
                Current::Stream {
                    reader,
                    carry,
                    name,
                } => {
                    let (buf, failure, eof) = read_chunk(reader, carry, self.chunk_size);
                    if let Some(e) = failure {
                        self.errors.push(LogError {
                            message: describe_read_error(name, &e),
                        });
                    }
                    if eof {
                        carry.clear();
                    }
                    match (buf.is_empty(), eof) {
                        (false, _) => Some(Data::Owned(buf)),
                        (true, true) => None,
                        (true, false) => continue,
                    }
                }
            };
            let Some(data) = data else {
                self.current = None;
                continue;
            };
            let taken = Taken {
                data,
                log,
                first: self.first,
                seq: self.seq,
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
        let n = read_full(&mut *raw, &mut magic)?;
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
        Ok(Current::Stream {
            reader,
            carry: Vec::new(),
            name: log.display(),
        })
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
    match memchr::memchr(b'\n', &map[target - 1..]) {
        Some(i) => target + i,
        None => map.len(),
    }
}

/// Reads the next chunk of a stream: up to `size` bytes after the carried-over partial line,
/// cut after the last newline (the rest is carried over). Returns the chunk, a read error if
/// one ended the stream, and whether the stream ended.
fn read_chunk(
    reader: &mut Box<dyn Read + Send>,
    carry: &mut Vec<u8>,
    size: usize,
) -> (Vec<u8>, Option<io::Error>, bool) {
    loop {
        let mut buf = std::mem::take(carry);
        let have = buf.len();
        buf.resize(have + size, 0);
        let (n, failure) = match read_full(&mut **reader, &mut buf[have..]) {
            Ok(n) => (n, None),
            Err(e) => (0, Some(e)),
        };
        buf.truncate(have + n);
        if n < size {
            return (buf, failure, true);
        }
        match memchr::memrchr(b'\n', &buf) {
            Some(i) => {
                *carry = buf.split_off(i + 1);
                return (buf, None, false);
            }
            // No newline in a whole chunk: keep reading into the same line.
            None => *carry = buf,
        }
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

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn read_full(r: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

fn describe_read_error(name: &str, e: &io::Error) -> String {
    if e.kind() == io::ErrorKind::UnexpectedEof {
        format!("{name}: truncated gzip stream; the lines before the cut were classified")
    } else {
        format!("{name}: read error ({e}); the lines before it were classified")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(logs: &[LogPath], chunk: usize, mmap: bool, threads: usize) -> (Vec<u8>, usize) {
        let config = ReadConfig {
            chunk_size: chunk,
            mmap,
            threads,
        };
        let mut out = Vec::new();
        let mut n = 0;
        let mut next_seq = 0;
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
                assert_eq!(bytes, r.len() as u64);
                next_seq += 1;
                out.extend_from_slice(&r);
                n += 1;
                Ok(())
            },
        )
        .unwrap();
        assert!(finished.errors.is_empty());
        assert_eq!(finished.workers.len(), threads);
        assert_eq!(finished.workers.iter().sum::<usize>(), n);
        (out, n)
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

    /// A panicking worker ends the run with an error instead of a hang.
    #[test]
    fn worker_panic_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("log.txt");
        std::fs::write(&p, "x\n".repeat(10_000)).unwrap();
        let config = ReadConfig {
            chunk_size: 100,
            mmap: true,
            threads: 2,
        };
        let result = run(
            &[LogPath::File(p)],
            &config,
            || (),
            |_, c| {
                assert!(c.seq != 5, "chunk 5 is poisoned");
            },
            |_, _| Ok(()),
        );
        let err = result.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("panicked"), "{err}");
    }
}
