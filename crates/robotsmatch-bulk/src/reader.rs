//! The bulk pipeline: logs in, chunks cut at line boundaries, classified in parallel, results
//! handed out in input order.
//!
//! Plain files are memory-mapped and cut in place; gzip files (detected by magic bytes, any
//! number of members) and stdin are read by one reader that fills chunk buffers and carries the
//! incomplete last line over to the next chunk, so every source feeds the same pipeline. A
//! window of chunks is classified in parallel on a rayon pool while a writer thread consumes
//! the previous window, so output order is input order whatever the thread count.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use rayon::prelude::*;

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

/// Options of the pipeline.
#[derive(Clone, Debug)]
pub struct PipelineConfig {
    /// Target chunk size in bytes (a chunk ends at the first newline after it).
    pub chunk_size: usize,
    /// Chunks classified per window (the writer holds at most two windows of results).
    pub window: usize,
    /// Memory-map plain files (otherwise they are read like streams).
    pub mmap: bool,
}

impl Default for PipelineConfig {
    fn default() -> PipelineConfig {
        PipelineConfig {
            chunk_size: 1 << 20,
            window: 16,
            mmap: true,
        }
    }
}

/// One chunk of a log: whole lines (the last may lack its newline at end of input).
pub struct Chunk<'a> {
    /// The bytes of the chunk.
    pub data: &'a [u8],
    /// Index of the log in the list given to [`run`].
    pub log: usize,
    /// True for the first chunk of a log (where a byte-order mark may sit).
    pub first: bool,
}

/// Something that went wrong with a log but did not stop the run.
#[derive(Debug)]
pub struct LogError {
    /// What happened.
    pub message: String,
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

/// The worker pool and pipeline settings for `threads` workers (default: all cores); returns
/// them with the thread count.
pub fn workers(
    threads: Option<usize>,
    chunk_size: usize,
    mmap: bool,
) -> anyhow::Result<(rayon::ThreadPool, PipelineConfig, usize)> {
    let threads = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start worker threads: {e}"))?;
    let config = PipelineConfig {
        chunk_size: chunk_size.max(1),
        window: (threads * 4).max(2),
        mmap,
    };
    Ok((pool, config, threads))
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

/// Runs the pipeline over `logs`: `process` classifies one chunk (on a rayon thread) and
/// `sink` receives the results in input order (on a writer thread), with the number of input
/// bytes they cover. Problems with a log (a truncated gzip, a read error mid-way) are returned
/// after everything that could be read was processed; a log that cannot be opened is an error
/// before any work is done (see [`check_logs`]).
pub fn run<R, P, S>(
    logs: &[LogPath],
    config: &PipelineConfig,
    pool: &rayon::ThreadPool,
    process: P,
    mut sink: S,
) -> io::Result<Vec<LogError>>
where
    R: Send,
    P: Fn(&Chunk<'_>) -> R + Sync,
    S: FnMut(R, u64) -> io::Result<()> + Send,
{
    let mut errors = Vec::new();
    std::thread::scope(|scope| -> io::Result<()> {
        let (tx, rx) = mpsc::sync_channel::<Vec<(R, u64)>>(1);
        let writer = scope.spawn(move || -> io::Result<()> {
            for batch in rx {
                for (r, bytes) in batch {
                    sink(r, bytes)?;
                }
            }
            Ok(())
        });
        let mut send = |batch: Vec<(R, u64)>| -> io::Result<()> {
            tx.send(batch)
                .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))
        };
        let result = (|| -> io::Result<()> {
            for (index, log) in logs.iter().enumerate() {
                match feed(index, log, config, pool, &process, &mut send) {
                    Ok(None) => {}
                    Ok(Some(e)) => errors.push(e),
                    Err(e) => return Err(e),
                }
            }
            Ok(())
        })();
        drop(tx);
        let written = writer
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("writer thread panicked")));
        // A writer error (a broken pipe) explains a failed send: report it first.
        written?;
        result
    })?;
    Ok(errors)
}

/// Feeds one log through the pipeline. `Ok(Some(e))` when the log ended badly but what was
/// read before was processed.
fn feed<R, P>(
    index: usize,
    log: &LogPath,
    config: &PipelineConfig,
    pool: &rayon::ThreadPool,
    process: &P,
    send: &mut dyn FnMut(Vec<(R, u64)>) -> io::Result<()>,
) -> io::Result<Option<LogError>>
where
    R: Send,
    P: Fn(&Chunk<'_>) -> R + Sync,
{
    let mut raw: Box<dyn Read> = match log {
        LogPath::Stdin => Box::new(io::stdin().lock()),
        LogPath::File(path) => Box::new(open(path)?),
    };
    let mut magic = [0u8; 2];
    let n = read_full(&mut raw, &mut magic)?;
    let gzip = n == 2 && magic == [0x1f, 0x8b];
    if let (false, true, LogPath::File(path)) = (gzip, config.mmap, log) {
        if let Some(map) = map_file(path)? {
            process_slices(index, &map, config, pool, process, send)?;
            return Ok(None);
        }
    }
    let head = io::Cursor::new(magic[..n].to_vec());
    let reader: Box<dyn Read> = if gzip {
        Box::new(flate2::read::MultiGzDecoder::new(
            io::BufReader::with_capacity(256 * 1024, head.chain(raw)),
        ))
    } else {
        Box::new(head.chain(raw))
    };
    stream(index, reader, &log.display(), config, pool, process, send)
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
    // tool (ripgrep included) documents, and `--no-mmap` reads the file instead. The
    // `classify_mmap_and_read_agree` CLI test checks that both paths give identical output.
    match unsafe { memmap2::Mmap::map(&file) } {
        Ok(map) => Ok(Some(map)),
        Err(_) => Ok(None),
    }
}

/// Cuts `data` into chunks at newline boundaries and processes them window by window.
fn process_slices<R, P>(
    index: usize,
    data: &[u8],
    config: &PipelineConfig,
    pool: &rayon::ThreadPool,
    process: &P,
    send: &mut dyn FnMut(Vec<(R, u64)>) -> io::Result<()>,
) -> io::Result<()>
where
    R: Send,
    P: Fn(&Chunk<'_>) -> R + Sync,
{
    let mut chunks: Vec<Chunk<'_>> = Vec::with_capacity(config.window);
    let mut start = 0;
    let mut seq = 0;
    while start < data.len() {
        let target = (start + config.chunk_size.max(1)).min(data.len());
        let end = match memchr::memchr(b'\n', &data[target - 1..]) {
            Some(i) => target - 1 + i + 1,
            None => data.len(),
        };
        chunks.push(Chunk {
            data: &data[start..end],
            log: index,
            first: seq == 0,
        });
        seq += 1;
        start = end;
        if chunks.len() == config.window.max(1) {
            send(process_window(&chunks, pool, process))?;
            chunks.clear();
        }
    }
    if !chunks.is_empty() {
        send(process_window(&chunks, pool, process))?;
    }
    Ok(())
}

fn process_window<R, P>(
    chunks: &[Chunk<'_>],
    pool: &rayon::ThreadPool,
    process: &P,
) -> Vec<(R, u64)>
where
    R: Send,
    P: Fn(&Chunk<'_>) -> R + Sync,
{
    pool.install(|| {
        chunks
            .par_iter()
            .with_max_len(1)
            .map(|c| (process(c), c.data.len() as u64))
            .collect()
    })
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

/// Streams a reader through the pipeline: fills chunk buffers, cuts each at its last newline
/// and carries the rest over. A read error ends the log: what was read is processed and the
/// error returned as a [`LogError`].
fn stream<R, P>(
    index: usize,
    mut reader: Box<dyn Read + '_>,
    name: &str,
    config: &PipelineConfig,
    pool: &rayon::ThreadPool,
    process: &P,
    send: &mut dyn FnMut(Vec<(R, u64)>) -> io::Result<()>,
) -> io::Result<Option<LogError>>
where
    R: Send,
    P: Fn(&Chunk<'_>) -> R + Sync,
{
    let size = config.chunk_size.max(1);
    let mut carry: Vec<u8> = Vec::new();
    let mut seq = 0u64;
    let mut failure = None;
    loop {
        let mut buffers: Vec<Vec<u8>> = Vec::with_capacity(config.window);
        let mut eof = false;
        while buffers.len() < config.window.max(1) && !eof {
            let mut buf = std::mem::take(&mut carry);
            let have = buf.len();
            buf.resize(have + size, 0);
            let n = match read_full(&mut reader, &mut buf[have..]) {
                Ok(n) => n,
                Err(e) => {
                    failure = Some(LogError {
                        message: describe_read_error(name, &e),
                    });
                    0
                }
            };
            buf.truncate(have + n);
            if n < size {
                eof = true;
            }
            if !eof {
                match memchr::memrchr(b'\n', &buf) {
                    Some(i) => carry = buf.split_off(i + 1),
                    // No newline in a whole chunk: keep reading into the same line.
                    None => {
                        carry = buf;
                        continue;
                    }
                }
            }
            if !buf.is_empty() {
                buffers.push(buf);
            }
        }
        let chunks: Vec<Chunk<'_>> = buffers
            .iter()
            .map(|b| {
                let c = Chunk {
                    data: b,
                    log: index,
                    first: seq == 0,
                };
                seq += 1;
                c
            })
            .collect();
        if !chunks.is_empty() {
            send(process_window(&chunks, pool, process))?;
        }
        if eof {
            return Ok(failure);
        }
    }
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
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let config = PipelineConfig {
            chunk_size: chunk,
            window: 3,
            mmap,
        };
        let mut out = Vec::new();
        let mut n = 0;
        let errs = run(
            logs,
            &config,
            &pool,
            |c| c.data.to_vec(),
            |r, _| {
                out.extend_from_slice(&r);
                n += 1;
                Ok(())
            },
        )
        .unwrap();
        assert!(errs.is_empty());
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
    }
}
