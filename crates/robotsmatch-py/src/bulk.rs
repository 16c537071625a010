//! `robotsmatch.Store`: the bulk pipeline of `robotsmatch-bulk` for Python. A store of
//! robots.txt files per host (a directory, one file, WARC captures, or a dict of bodies)
//! classifies a log file, or an Arrow array of URLs (with their hosts, optionally), on all
//! cores with the GIL released, and answers with a pyarrow Table or a dict of counts.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use arrow_array::builder::{ArrayBuilder, BooleanBuilder, Int32Builder, StringBuilder};
use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use pyo3::exceptions::{
    PyFileNotFoundError, PyOSError, PyRuntimeWarning, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyMapping, PyString};
use pyo3_arrow::PyTable;
use robotsmatch::{catalog, MatcherBuilder, Profile};
use robotsmatch_bulk::reader::{self, LogPath};
use robotsmatch_bulk::store::STORE_DENSE_SIZE_LIMIT;
use robotsmatch_bulk::{
    Classified, Classifier, Invalid, LineFormat, Sink, Store, StoreConfig, Summary, Worker,
};

use crate::{batch_input, body_bytes, profile_named, type_name, BatchInput};

/// How many hosts and rules the counts list.
const TOP: usize = 10;

/// robots.txt files per host, compiled for one crawler when their host is first seen
/// (identical bodies once), for classifying whole logs or Arrow arrays of URLs on all cores.
///
/// Make one with `Store.open(path, agent)` (a directory of `<host>.txt` files, or one file
/// for every host), `Store.from_bodies({host: body}, agent)` or `Store.from_warc(paths,
/// agent)`. Immutable and safe to share between threads; its compiled bodies are kept for
/// the next call.
#[pyclass(frozen, module = "robotsmatch", name = "Store")]
pub(crate) struct PyStore {
    store: Store,
    agent: String,
    profile: Profile,
    /// Warm workers (host tables, lazy-DFA caches) for `classify` and `count` (each call sets
    /// their line format and counting; see `Classifier::classify_many`).
    workers: Mutex<Vec<Worker>>,
    /// Records of the WARC files that were skipped, one message each.
    problems: Vec<String>,
}

fn config(agent: &str, profile: &str) -> PyResult<(StoreConfig, Profile)> {
    let profile = profile_named(profile)?;
    let builder = MatcherBuilder::new()
        .profile(profile)
        .dense_size_limit(STORE_DENSE_SIZE_LIMIT);
    Ok((
        StoreConfig::new(catalog::agent_for(agent)).builder(builder),
        profile,
    ))
}

fn store_error(e: robotsmatch_bulk::Error) -> PyErr {
    let message = match std::error::Error::source(&e) {
        Some(source) => format!("{e}: {source}"),
        None => e.to_string(),
    };
    if e.io_kind() == std::io::ErrorKind::NotFound {
        PyFileNotFoundError::new_err(message)
    } else {
        PyOSError::new_err(message)
    }
}

fn log_error(e: std::io::Error) -> PyErr {
    if e.kind() == std::io::ErrorKind::NotFound {
        PyFileNotFoundError::new_err(e.to_string())
    } else {
        PyOSError::new_err(e.to_string())
    }
}

/// Paths given as one `str`/path-like or a sequence of them.
fn paths(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<PathBuf>> {
    if obj.cast::<PyString>().is_ok() || obj.hasattr("__fspath__")? {
        return Ok(vec![obj.extract::<PathBuf>()?]);
    }
    let list: Vec<Bound<'_, PyAny>> = obj.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "{what} must be a path or a list of paths, not {}",
            type_name(obj)
        ))
    })?;
    list.iter()
        .map(|p| {
            p.extract::<PathBuf>().map_err(|_| {
                PyTypeError::new_err(format!("{what} must hold paths, not {}", type_name(p)))
            })
        })
        .collect()
}

/// Issues a `RuntimeWarning`.
fn warn(py: Python<'_>, message: &str) -> PyResult<()> {
    py.import("warnings")?.getattr("warn")?.call1((
        message,
        py.get_type::<PyRuntimeWarning>(),
        2,
    ))?;
    Ok(())
}

/// The columns of a classification, filled per chunk on the worker threads.
struct Columns {
    url: Option<StringBuilder>,
    host: StringBuilder,
    verdict: StringBuilder,
    line: Int32Builder,
    rule: StringBuilder,
    robots: BooleanBuilder,
    /// The rule's text, written here and appended (no allocation per URL).
    scratch: String,
}

/// The sink that fills [`Columns`]: `url` (logs only: the URL as written), `host`, `verdict`
/// (`allowed`, `disallowed`, `invalid`), `line` and `rule` of the deciding rule, `robots`
/// (whether the host had a robots.txt that was parsed).
struct ArrowSink {
    with_url: bool,
    /// [`Sink::batch`]'s hint is bytes (logs) rather than URLs.
    hint_is_bytes: bool,
}

impl Sink for ArrowSink {
    type Batch = Columns;

    fn batch(&self, size: usize) -> Columns {
        let rows = if self.hint_is_bytes { size / 64 } else { size };
        Columns {
            url: self
                .with_url
                .then(|| StringBuilder::with_capacity(rows, rows * 64)),
            host: StringBuilder::with_capacity(rows, rows * 16),
            verdict: StringBuilder::with_capacity(rows, rows * 8),
            line: Int32Builder::with_capacity(rows),
            rule: StringBuilder::with_capacity(rows, 0),
            robots: BooleanBuilder::with_capacity(rows),
            scratch: String::new(),
        }
    }

    fn url(&self, b: &mut Columns, c: &Classified<'_>) {
        if let Some(url) = &mut b.url {
            url.append_value(String::from_utf8_lossy(c.text));
        }
        b.host.append_value(String::from_utf8_lossy(c.host));
        b.verdict
            .append_value(if c.allowed { "allowed" } else { "disallowed" });
        match c.rule() {
            Some(r) => {
                b.line.append_value(r.line() as i32);
                b.scratch.clear();
                let _ = write!(b.scratch, "{r}");
                b.rule.append_value(&b.scratch);
            }
            None => {
                b.line.append_null();
                b.rule.append_null();
            }
        }
        b.robots.append_value(c.has_robots());
    }

    fn invalid(&self, b: &mut Columns, line: &Invalid<'_>) {
        if let Some(url) = &mut b.url {
            url.append_value(String::from_utf8_lossy(line.line));
        }
        b.host.append_null();
        b.verdict.append_value("invalid");
        b.line.append_null();
        b.rule.append_null();
        b.robots.append_value(false);
    }

    fn missing(&self, b: &mut Columns) {
        if let Some(url) = &mut b.url {
            url.append_null();
        }
        b.host.append_null();
        b.verdict.append_null();
        b.line.append_null();
        b.rule.append_null();
        b.robots.append_null();
    }
}

/// The result columns' schema, after a `url` column of `url_type`.
fn schema(url_type: &DataType) -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("url", url_type.clone(), true),
        Field::new("host", DataType::Utf8, true),
        Field::new("verdict", DataType::Utf8, true),
        Field::new("line", DataType::Int32, true),
        Field::new("rule", DataType::Utf8, true),
        Field::new("robots", DataType::Boolean, true),
    ]))
}

impl Columns {
    /// The rows as a record batch, with `url` (when the sink did not build it).
    fn finish(mut self, schema: &SchemaRef, url: Option<ArrayRef>) -> PyResult<RecordBatch> {
        let url = match (url, &mut self.url) {
            (Some(u), _) => u,
            (None, Some(b)) => Arc::new(b.finish()),
            (None, None) => return Err(PyValueError::new_err("no url column")),
        };
        RecordBatch::try_new(
            schema.clone(),
            vec![
                url,
                Arc::new(self.host.finish()),
                Arc::new(self.verdict.finish()),
                Arc::new(self.line.finish()),
                Arc::new(self.rule.finish()),
                Arc::new(self.robots.finish()),
            ],
        )
        .map_err(|e| PyValueError::new_err(format!("cannot build the result table: {e}")))
    }
}

/// The options of a call on URLs given in memory.
#[derive(Clone, Copy)]
struct Run {
    threads: Option<usize>,
    decode_amp: bool,
    /// Count per host and per rule (for the counts dict).
    counts: bool,
}

/// What classifying URLs given in memory gives: each batch with the slice of URLs it
/// covers, the summary, and the URLs' Arrow type.
type Batches<B> = (Vec<(B, ArrayRef)>, Summary, DataType);

/// The number of rows of a batch (for slicing the input URLs alongside).
trait Rows {
    fn rows(&self) -> usize;
}

impl Rows for Columns {
    fn rows(&self) -> usize {
        self.verdict.len()
    }
}

impl Rows for () {
    fn rows(&self) -> usize {
        0
    }
}

/// A column of strings of any of Arrow's three string types, read without copying.
enum Strings {
    Utf8(arrow_array::StringArray),
    Large(arrow_array::LargeStringArray),
    View(arrow_array::StringViewArray),
}

impl Strings {
    fn new(array: &ArrayRef) -> Option<Strings> {
        Some(match array.data_type() {
            DataType::Utf8 => Strings::Utf8(array.as_string::<i32>().clone()),
            DataType::LargeUtf8 => Strings::Large(array.as_string::<i64>().clone()),
            DataType::Utf8View => Strings::View(array.as_string_view().clone()),
            _ => return None,
        })
    }

    #[inline]
    fn get(&self, i: usize) -> Option<&[u8]> {
        match self {
            Strings::Utf8(a) => (!a.is_null(i)).then(|| a.value(i).as_bytes()),
            Strings::Large(a) => (!a.is_null(i)).then(|| a.value(i).as_bytes()),
            Strings::View(a) => (!a.is_null(i)).then(|| a.value(i).as_bytes()),
        }
    }
}

/// A chunked column of strings, indexed over all its chunks.
struct Chunked {
    chunks: Vec<Strings>,
    /// The index of each chunk's first element, and the total at the end.
    starts: Vec<usize>,
}

impl Chunked {
    fn new(arrays: &[ArrayRef], what: &str) -> PyResult<Chunked> {
        let mut chunks = Vec::with_capacity(arrays.len());
        let mut starts = vec![0];
        for a in arrays {
            chunks.push(Strings::new(a).ok_or_else(|| {
                PyTypeError::new_err(format!(
                    "{what} must be an Arrow array of strings, not {}",
                    a.data_type()
                ))
            })?);
            starts.push(starts[starts.len() - 1] + a.len());
        }
        Ok(Chunked { chunks, starts })
    }

    fn len(&self) -> usize {
        self.starts[self.starts.len() - 1]
    }

    #[inline]
    fn get(&self, i: usize) -> Option<&[u8]> {
        let c = self.starts.partition_point(|&s| s <= i).checked_sub(1)?;
        self.chunks.get(c)?.get(i - self.starts[c])
    }
}

/// The Arrow chunks of a batch argument (a list becomes one Utf8 array).
fn arrow_chunks(input: BatchInput) -> PyResult<Vec<ArrayRef>> {
    Ok(match input {
        BatchInput::Array(a) => vec![a],
        BatchInput::Chunked(c) => c,
        BatchInput::List(batch) => {
            let mut b = StringBuilder::with_capacity(batch.ends.len(), batch.buf.len());
            for url in batch.iter() {
                // push_url checked that every item is UTF-8.
                b.append_value(String::from_utf8_lossy(url));
            }
            vec![Arc::new(b.finish())]
        }
    })
}

/// The counts of a summary as a dict.
fn counts_dict<'py>(
    py: Python<'py>,
    s: &Summary,
    log_errors: &[String],
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("lines", s.lines)?;
    d.set_item("urls", s.urls())?;
    d.set_item("allowed", s.allowed)?;
    d.set_item("disallowed", s.disallowed)?;
    d.set_item("no_robots", s.no_robots)?;
    d.set_item("unavailable", s.unavailable)?;
    d.set_item("unreachable", s.unreachable)?;
    d.set_item("invalid", s.invalid())?;
    d.set_item("malformed", s.malformed)?;
    d.set_item("blank", s.blank)?;
    d.set_item("hosts", s.host_count())?;
    let hosts: Vec<(String, u64, u64)> = s
        .top_hosts(TOP)
        .iter()
        .map(|h| {
            (
                String::from_utf8_lossy(h.host).into_owned(),
                h.allowed,
                h.disallowed,
            )
        })
        .collect();
    d.set_item("top_hosts", hosts)?;
    let rules: Vec<(u64, String, u32, String)> = s
        .top_rules(TOP)
        .iter()
        .map(|r| {
            (
                r.count,
                String::from_utf8_lossy(&r.host).into_owned(),
                r.line,
                r.rule.clone(),
            )
        })
        .collect();
    d.set_item("top_rules", rules)?;
    let malformed: Vec<(u64, String, String)> = s
        .malformed_lines
        .iter()
        .map(|m| {
            (
                m.line,
                m.reason.as_str().to_string(),
                String::from_utf8_lossy(&m.text).into_owned(),
            )
        })
        .collect();
    d.set_item("malformed_lines", malformed)?;
    d.set_item("log_errors", log_errors.to_vec())?;
    Ok(d)
}

/// The options of a log: the URL column and delimiter.
fn line_format(column: Option<usize>, delimiter: &str, decode_amp: bool) -> PyResult<LineFormat> {
    let delimiter = match delimiter {
        "\t" | "\\t" | "tab" => b'\t',
        d if d.len() == 1 && d.is_ascii() => d.as_bytes()[0],
        d => {
            return Err(PyValueError::new_err(format!(
                "delimiter must be one ASCII character, not {d:?}"
            )))
        }
    };
    if column == Some(0) {
        return Err(PyValueError::new_err("column is 1-based: 1 is the first"));
    }
    Ok(LineFormat {
        column: column.unwrap_or(0),
        delimiter,
        decode_amp,
    })
}

fn threads_or_default(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        Some(0) => Err(PyValueError::new_err("threads must be at least 1")),
        Some(n) => Ok(n),
        None => Ok(reader::default_threads()),
    }
}

impl PyStore {
    fn new(store: Store, agent: &str, profile: Profile, problems: Vec<String>) -> PyStore {
        PyStore {
            store,
            agent: agent.to_string(),
            profile,
            workers: Mutex::new(Vec::new()),
            problems,
        }
    }

    /// Classifies the logs; the batches and the report.
    fn run_logs<S: Sink>(
        &self,
        py: Python<'_>,
        logs: &Bound<'_, PyAny>,
        format: LineFormat,
        threads: Option<usize>,
        sink: &S,
        counts: bool,
    ) -> PyResult<(Vec<S::Batch>, Summary, Vec<String>)>
    where
        S::Batch: Send,
    {
        let logs: Vec<LogPath> = paths(logs, "logs")?
            .into_iter()
            .map(LogPath::File)
            .collect();
        reader::check_logs(&logs).map_err(log_error)?;
        let classifier = Classifier::new(&self.store)
            .line_format(format)
            .threads(threads_or_default(threads)?)
            .count_rules(counts)
            .count_hosts(counts);
        let (batches, report) = py
            .detach(|| {
                let mut batches = Vec::new();
                let report = classifier.run(&logs, sink, |b, _| {
                    batches.push(b);
                    Ok(())
                })?;
                Ok::<_, std::io::Error>((batches, report))
            })
            .map_err(log_error)?;
        let mut errors: Vec<String> = report.errors.into_iter().map(|e| e.message).collect();
        errors.extend(
            self.store
                .errors()
                .into_iter()
                .map(|e| format!("{e} (its host was treated as having no robots.txt)")),
        );
        for e in &errors {
            warn(py, e)?;
        }
        Ok((batches, report.summary, errors))
    }

    /// Classifies URLs given as Arrow arrays (or a list): the batches with their URL slices,
    /// and the summary.
    fn run_urls<S: Sink>(
        &self,
        py: Python<'_>,
        urls: &Bound<'_, PyAny>,
        hosts: Option<&Bound<'_, PyAny>>,
        run: Run,
        sink: &S,
    ) -> PyResult<Batches<S::Batch>>
    where
        S::Batch: Rows,
    {
        let url_chunks = arrow_chunks(batch_input(urls)?)?;
        let url_type = url_chunks
            .first()
            .map_or(DataType::Utf8, |a| a.data_type().clone());
        let host_col = match hosts {
            Some(h) if !h.is_none() => {
                let col = Chunked::new(&arrow_chunks(batch_input(h)?)?, "hosts")?;
                let n: usize = url_chunks.iter().map(|a| a.len()).sum();
                if col.len() != n {
                    return Err(PyValueError::new_err(format!(
                        "hosts has {} elements, urls {n}: they must have the same length",
                        col.len()
                    )));
                }
                Some(col)
            }
            _ => None,
        };
        let url_cols = Chunked::new(&url_chunks, "urls")?.chunks;
        let classifier = Classifier::new(&self.store)
            .line_format(LineFormat {
                decode_amp: run.decode_amp,
                ..LineFormat::default()
            })
            .threads(threads_or_default(run.threads)?)
            .count_rules(run.counts)
            .count_hosts(run.counts);
        let pool = &self.workers;
        let mut workers = pool
            .lock()
            .map(|mut w| std::mem::take(&mut *w))
            .unwrap_or_default();
        let (out, summary) = py.detach(|| {
            let mut out = Vec::new();
            let mut start = 0usize;
            for (chunk, col) in url_chunks.iter().zip(&url_cols) {
                let n = chunk.len();
                let batches = classifier.classify_many(
                    &mut workers,
                    start as u64,
                    n,
                    |i| {
                        let url = col.get(i)?;
                        let host = host_col.as_ref().and_then(|h| h.get(start + i));
                        Some((url, host))
                    },
                    sink,
                );
                let mut offset = 0;
                for b in batches {
                    let rows = b.rows();
                    out.push((b, chunk.slice(offset, rows)));
                    offset += rows;
                }
                start += n;
            }
            let mut summary = Summary::default();
            for w in &mut workers {
                w.add_summary_to(&mut summary);
            }
            (out, summary)
        });
        if let Ok(mut w) = pool.lock() {
            if w.is_empty() {
                *w = workers;
            }
        }
        for e in self.store.errors() {
            warn(
                py,
                &format!("{e} (its host was treated as having no robots.txt)"),
            )?;
        }
        Ok((out, summary, url_type))
    }
}

#[pymethods]
impl PyStore {
    /// A store of the robots.txt files at `path`: a directory of `<host>.txt` files (also
    /// `<host>/robots.txt`; a port as `<host>_<port>.txt`), as `robotsmatch classify --robots
    /// DIR` reads it, or one file for every host. Compiled for `agent` under `profile`.
    /// Raises `FileNotFoundError` (or `OSError`) naming the path.
    #[staticmethod]
    #[pyo3(signature = (path, agent, profile = "google"))]
    fn open(path: PathBuf, agent: &str, profile: &str) -> PyResult<PyStore> {
        let (config, p) = config(agent, profile)?;
        let store = Store::open(&path, config).map_err(store_error)?;
        Ok(PyStore::new(store, agent, p, Vec::new()))
    }

    /// A store of bodies in memory: `{host: body}` (host keys as `example.com` or
    /// `example.com_8080`, compared ignoring case; bodies `bytes` or `str`).
    #[staticmethod]
    #[pyo3(signature = (bodies, agent, profile = "google"))]
    fn from_bodies(bodies: &Bound<'_, PyAny>, agent: &str, profile: &str) -> PyResult<PyStore> {
        let (config, p) = config(agent, profile)?;
        let mapping = bodies.cast::<PyMapping>().map_err(|_| {
            PyTypeError::new_err(format!(
                "bodies must be a mapping of host to body, not {}",
                type_name(bodies)
            ))
        })?;
        let mut pairs = Vec::new();
        for item in mapping.items()?.iter() {
            let (host, body): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item.extract()?;
            let host: String = host.extract().map_err(|_| {
                PyTypeError::new_err(format!("host keys must be str, not {}", type_name(&host)))
            })?;
            pairs.push((host, body_bytes(&body)?));
        }
        Ok(PyStore::new(
            Store::from_bodies(pairs, config),
            agent,
            p,
            Vec::new(),
        ))
    }

    /// A store of the robots.txt captures in WARC files (`.warc.gz` or plain), with RFC 9309
    /// status semantics (2xx parsed, 4xx allow all, 5xx/429 disallow all), as `robotsmatch
    /// classify --robots-warc` reads them. Malformed records are skipped and listed in
    /// `problems`.
    #[staticmethod]
    #[pyo3(signature = (paths, agent, profile = "google"))]
    fn from_warc(paths: &Bound<'_, PyAny>, agent: &str, profile: &str) -> PyResult<PyStore> {
        let files = self::paths(paths, "paths")?;
        let (config, p) = config(agent, profile)?;
        let mut problems = Vec::new();
        let (store, _) = Store::from_warc(&files, config, &mut |path, problem| {
            problems.push(format!(
                "{}: offset {}: {}",
                path.display(),
                problem.offset,
                problem.message
            ))
        })
        .map_err(store_error)?;
        Ok(PyStore::new(store, agent, p, problems))
    }

    /// Classifies every line of the logs (a path or a list of paths; plain or gzip) on all
    /// cores (or `threads`), with the GIL released. `column` (1-based) and `delimiter` pick
    /// the URL of TSV/CSV lines; `decode_amp` reads `&amp;` as `&`. Returns a pyarrow Table,
    /// one row per line in input order: `url` (as written), `host`, `verdict` (`allowed`,
    /// `disallowed`, `invalid`), `line` and `rule` of the deciding rule (null when none),
    /// `robots` (the host had a robots.txt). A log that ends badly (a truncated gzip) gives
    /// a `RuntimeWarning` after the lines before were classified.
    #[pyo3(signature = (logs, *, threads = None, column = None, delimiter = "\t", decode_amp = false))]
    fn classify_log<'py>(
        &self,
        py: Python<'py>,
        logs: &Bound<'py, PyAny>,
        threads: Option<usize>,
        column: Option<usize>,
        delimiter: &str,
        decode_amp: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let format = line_format(column, delimiter, decode_amp)?;
        let sink = ArrowSink {
            with_url: true,
            hint_is_bytes: true,
        };
        let (batches, _, _) = self.run_logs(py, logs, format, threads, &sink, false)?;
        let schema = schema(&DataType::Utf8);
        let batches = batches
            .into_iter()
            .map(|b| b.finish(&schema, None))
            .collect::<PyResult<Vec<_>>>()?;
        PyTable::try_new(batches, schema)?.into_pyarrow(py)
    }

    /// Counts what `classify_log` would classify, without building a table: a dict with
    /// `lines`, `urls`, `allowed`, `disallowed`, `no_robots`, `unavailable`, `unreachable`,
    /// `invalid` (`malformed` plus `blank`), `hosts` (distinct hosts seen), `top_hosts`
    /// (host, allowed, disallowed), `top_rules` (count, example host, line, rule),
    /// `malformed_lines` (line, reason, text) and `log_errors`.
    #[pyo3(signature = (logs, *, threads = None, column = None, delimiter = "\t", decode_amp = false))]
    fn count_log<'py>(
        &self,
        py: Python<'py>,
        logs: &Bound<'py, PyAny>,
        threads: Option<usize>,
        column: Option<usize>,
        delimiter: &str,
        decode_amp: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        let format = line_format(column, delimiter, decode_amp)?;
        let (_, summary, errors) = self.run_logs(py, logs, format, threads, &(), true)?;
        counts_dict(py, &summary, &errors)
    }

    /// Classifies URLs on all cores (or `threads`), with the GIL released: `urls` is an Arrow
    /// array or chunked array of strings (pyarrow, a Polars Series, anything with
    /// `__arrow_c_array__` / `__arrow_c_stream__`; read without copying) or a list of str;
    /// `hosts`, of the same length, optionally gives each URL's host key (`example.com`,
    /// `example.com_8080`; null: taken from the URL), which lets a URL be a bare path. Returns
    /// a pyarrow Table with the input `url` column, then `host`, `verdict`, `line`, `rule`,
    /// `robots` as `classify_log` gives them (all null for a null URL).
    #[pyo3(signature = (urls, hosts = None, *, threads = None, decode_amp = false))]
    fn classify<'py>(
        &self,
        py: Python<'py>,
        urls: &Bound<'py, PyAny>,
        hosts: Option<&Bound<'py, PyAny>>,
        threads: Option<usize>,
        decode_amp: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let sink = ArrowSink {
            with_url: false,
            hint_is_bytes: false,
        };
        let (out, _, url_type) = self.run_urls(
            py,
            urls,
            hosts,
            Run {
                threads,
                decode_amp,
                counts: false,
            },
            &sink,
        )?;
        let schema = schema(&url_type);
        let batches = out
            .into_iter()
            .map(|(b, url)| b.finish(&schema, Some(url)))
            .collect::<PyResult<Vec<_>>>()?;
        PyTable::try_new(batches, schema)?.into_pyarrow(py)
    }

    /// Counts what `classify` would classify (the dict of `count_log`).
    #[pyo3(signature = (urls, hosts = None, *, threads = None, decode_amp = false))]
    fn count<'py>(
        &self,
        py: Python<'py>,
        urls: &Bound<'py, PyAny>,
        hosts: Option<&Bound<'py, PyAny>>,
        threads: Option<usize>,
        decode_amp: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        let (_, summary, _) = self.run_urls(
            py,
            urls,
            hosts,
            Run {
                threads,
                decode_amp,
                counts: true,
            },
            &(),
        )?;
        counts_dict(py, &summary, &[])
    }

    /// The agent as given.
    #[getter]
    fn agent(&self) -> &str {
        &self.agent
    }

    /// The profile's name.
    #[getter]
    fn profile(&self) -> &'static str {
        self.profile.name
    }

    /// The number of hosts with a robots.txt in the store.
    #[getter]
    fn file_count(&self) -> usize {
        self.store.file_count()
    }

    /// The number of distinct bodies compiled so far.
    #[getter]
    fn compiled_count(&self) -> usize {
        self.store.compiled_count()
    }

    /// Messages about skipped WARC records (`from_warc`), and files that could not be read.
    #[getter]
    fn problems<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mut all = self.problems.clone();
        all.extend(self.store.errors());
        PyList::new(py, all)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Store(agent={}, profile='{}', files={}, compiled={})",
            crate::py_repr(py, &self.agent)?,
            self.profile.name,
            self.store.file_count(),
            self.store.compiled_count()
        ))
    }
}
