//! Python bindings of robotsmatch: the native module `robotsmatch._robotsmatch`, re-exported by
//! the pure-Python package `robotsmatch` (which adds the Scrapy adapter).
//!
//! - `PyRobots` (`robotsmatch.Robots`): a parsed robots.txt file, its sitemaps, warnings and
//!   crawl delays; `robots.matcher(agent, profile)` compiles a matcher.
//! - `PyMatcher` (`robotsmatch.Matcher`): immutable, shared freely between threads; decides
//!   one URL (`allowed`, `decide`) or a batch (`allowed_many`, `decide_many`) with the GIL
//!   released. A batch is a list (or tuple) of `str`/`bytes`, answered with lists, or any Arrow
//!   array or chunked array of strings (read zero-copy through the Arrow PyCapsule
//!   interface), answered with a pyarrow array of the same shape.
//! - `PyDecision` (`robotsmatch.Decision`): a verdict and the rule that decided it.
//!
//! Every object pickles: a matcher as its robots.txt body, agent and profile, rebuilt on load.
//! Bad input raises `TypeError` or `ValueError` with the offending index; nothing panics.

use std::sync::{Arc, Mutex};

mod bulk;

use arrow_array::builder::{BooleanBuilder, Int32Builder};
use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, BooleanArray, Int32Array, StructArray};
use arrow_schema::{DataType, Field, Fields};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyString, PyTuple};
use pyo3_arrow::input::AnyArray;
use pyo3_arrow::{PyArray, PyChunkedArray};
use robotsmatch::{catalog, Cache, Matcher, MatcherBuilder, Profile, Robots};

/// A parsed robots.txt file.
///
/// `Robots.parse(body)` takes `bytes` (any bytes: robots.txt is not required to be UTF-8) or
/// `str`. Parsing never fails; like Google's crawler (and the `robotsmatch` command line),
/// only the first 500 KiB are parsed and the line that limit cuts is dropped (`truncated`
/// says so). Immutable and safe to share between threads; pickles as its body.
#[pyclass(frozen, module = "robotsmatch", name = "Robots")]
struct PyRobots {
    body: Arc<[u8]>,
    robots: Arc<Robots>,
}

/// Decides whether one crawler may fetch URLs under one robots.txt file.
///
/// Build it with `robots.matcher(agent, profile="google")` or
/// `Matcher(body, agent, profile="google")`. Immutable and safe to share between threads;
/// pickles as (robots.txt body, agent, profile) and is recompiled on load.
#[pyclass(frozen, module = "robotsmatch", name = "Matcher")]
struct PyMatcher {
    body: Arc<[u8]>,
    agent: String,
    profile: Profile,
    matcher: Matcher,
    /// Lazy-DFA caches kept warm between batch calls (one is taken per call in progress).
    caches: Mutex<Vec<Cache>>,
}

/// The verdict for one URL: `allowed`, and the deciding rule's `kind` (`"allow"` or
/// `"disallow"`), `pattern` (as written) and `line` (1-based), all `None` when no rule
/// matched (the URL is then allowed) or the path is `/robots.txt` (always allowed).
#[pyclass(frozen, eq, hash, module = "robotsmatch", name = "Decision")]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct PyDecision {
    /// True when the crawler may fetch the URL.
    #[pyo3(get)]
    allowed: bool,
    /// `"allow"`, `"disallow"`, or `None` when no rule decided.
    #[pyo3(get)]
    kind: Option<String>,
    /// The deciding rule's pattern as written in the file (invalid UTF-8 replaced).
    #[pyo3(get)]
    pattern: Option<String>,
    /// The deciding rule's 1-based line number.
    #[pyo3(get)]
    line: Option<u32>,
}

/// What `__reduce__` returns: the callable that rebuilds the object, and its arguments.
type Reduced<'py, A> = (Bound<'py, PyAny>, A);

/// The arguments of `Decision(allowed, kind, pattern, line)`.
type DecisionArgs = (bool, Option<String>, Option<String>, Option<u32>);

/// The name of a Python object's type, for error messages.
fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".to_string())
}

/// Python's `repr` of a string (quotes and escapes as Python writes them).
fn py_repr(py: Python<'_>, s: &str) -> PyResult<String> {
    Ok(PyString::new(py, s).repr()?.to_cow()?.into_owned())
}

/// The bytes of a robots.txt body given as `bytes`, `bytearray` or `str`.
fn body_bytes(body: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(b) = body.cast::<PyBytes>() {
        Ok(b.as_bytes().to_vec())
    } else if let Ok(b) = body.cast::<PyByteArray>() {
        Ok(b.to_vec())
    } else if let Ok(s) = body.cast::<PyString>() {
        let s = s.to_cow().map_err(|e| {
            PyValueError::new_err(format!(
                "robots.txt body is a str that is not valid UTF-8: {e}"
            ))
        })?;
        Ok(s.as_bytes().to_vec())
    } else {
        Err(PyTypeError::new_err(format!(
            "robots.txt body must be bytes or str, not {}",
            type_name(body)
        )))
    }
}

/// Appends one URL (`str` or UTF-8 `bytes`) to `buf`. `what` names it in errors
/// (`url`, `urls[3]`).
fn push_url(buf: &mut Vec<u8>, obj: &Bound<'_, PyAny>, what: &dyn Fn() -> String) -> PyResult<()> {
    if let Ok(s) = obj.cast::<PyString>() {
        // One encoding into a bytes object (abi3 for Python 3.9 has no borrowed UTF-8 view).
        let encoded = s
            .encode_utf8()
            .map_err(|e| PyValueError::new_err(format!("{} is not valid UTF-8: {e}", what())))?;
        buf.extend_from_slice(encoded.as_bytes());
        Ok(())
    } else if let Ok(b) = obj.cast::<PyBytes>() {
        let bytes = b.as_bytes();
        if let Err(e) = std::str::from_utf8(bytes) {
            return Err(PyValueError::new_err(format!(
                "{} is not valid UTF-8: byte 0x{:02x} at offset {}",
                what(),
                bytes[e.valid_up_to()],
                e.valid_up_to()
            )));
        }
        buf.extend_from_slice(bytes);
        Ok(())
    } else {
        Err(PyTypeError::new_err(format!(
            "{} must be str or bytes, not {}",
            what(),
            type_name(obj)
        )))
    }
}

/// The profile named `name` (`google` or `legacy`), or a `ValueError`.
fn profile_named(name: &str) -> PyResult<Profile> {
    Profile::from_name(name.trim()).ok_or_else(|| {
        let known: Vec<&str> = Profile::ALL.iter().map(|p| p.name).collect();
        PyValueError::new_err(format!(
            "unknown profile '{name}' (expected one of: {})",
            known.join(", ")
        ))
    })
}

/// A crawler name given by the caller: `ValueError` when it is empty or only white space, with
/// the message of the command line and the web tester (issue 16).
fn agent_named(agent: &str) -> PyResult<&str> {
    robotsmatch::agent::check_name(agent).map_err(|e| PyValueError::new_err(format!("agent {e}")))
}

/// URLs copied out of a Python list into one buffer, so that the GIL can be released.
struct UrlBatch {
    buf: Vec<u8>,
    ends: Vec<usize>,
}

impl UrlBatch {
    /// Copies every item (named `urls[i]` in errors) into one buffer.
    fn from_items<'py>(
        items: impl Iterator<Item = Bound<'py, PyAny>>,
        len: usize,
    ) -> PyResult<Self> {
        let mut batch = UrlBatch {
            buf: Vec::with_capacity(len * 64),
            ends: Vec::with_capacity(len),
        };
        for (i, item) in items.enumerate() {
            push_url(&mut batch.buf, &item, &|| format!("urls[{i}]"))?;
            batch.ends.push(batch.buf.len());
        }
        Ok(batch)
    }

    /// The URLs, in order.
    fn iter(&self) -> impl Iterator<Item = &[u8]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(self.ends.iter()).map(|(s, &e)| &self.buf[s..e])
    }
}

/// What a batch call was given.
enum BatchInput {
    /// A list or tuple: answered with a list.
    List(UrlBatch),
    /// One Arrow array: answered with one pyarrow array.
    Array(ArrayRef),
    /// A chunked array or stream: answered with a pyarrow chunked array.
    Chunked(Vec<ArrayRef>),
}

/// Reads the argument of a batch call: a list or tuple of str/bytes (copied into one buffer),
/// or an Arrow array or stream of strings (imported without copying).
fn batch_input(urls: &Bound<'_, PyAny>) -> PyResult<BatchInput> {
    let py = urls.py();
    if let Ok(list) = urls.cast::<PyList>() {
        return Ok(BatchInput::List(UrlBatch::from_items(
            list.iter(),
            list.len(),
        )?));
    }
    if let Ok(tuple) = urls.cast::<PyTuple>() {
        return Ok(BatchInput::List(UrlBatch::from_items(
            tuple.iter(),
            tuple.len(),
        )?));
    }
    let is_array = urls.hasattr(pyo3::intern!(py, "__arrow_c_array__"))?;
    let is_stream = urls.hasattr(pyo3::intern!(py, "__arrow_c_stream__"))?;
    if !is_array && !is_stream {
        return Err(PyTypeError::new_err(format!(
            "urls must be a list of str or bytes, or an Arrow array of strings (an object with \
             __arrow_c_array__ or __arrow_c_stream__, e.g. pyarrow.Array), not {}",
            type_name(urls)
        )));
    }
    let input: AnyArray = urls.extract()?;
    // The declared type is checked, so that an empty chunked array of ints is refused too.
    match input.field()?.data_type() {
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => {}
        other => {
            return Err(PyTypeError::new_err(format!(
                "urls must be an Arrow array of strings (string, large_string or string_view), \
                 not {other}"
            )))
        }
    }
    let input = match input {
        AnyArray::Array(a) => BatchInput::Array(a.into_inner().0),
        AnyArray::Stream(s) => {
            let (chunks, _) = AnyArray::Stream(s).into_chunked_array()?.into_inner();
            BatchInput::Chunked(chunks)
        }
    };
    Ok(input)
}

/// Calls `f(Some(url))` or `f(None)` (a null) for every element of a string array.
fn for_each_url(array: &ArrayRef, mut f: impl FnMut(Option<&[u8]>)) {
    match array.data_type() {
        DataType::Utf8 => array
            .as_string::<i32>()
            .iter()
            .for_each(|u| f(u.map(str::as_bytes))),
        DataType::LargeUtf8 => array
            .as_string::<i64>()
            .iter()
            .for_each(|u| f(u.map(str::as_bytes))),
        DataType::Utf8View => array
            .as_string_view()
            .iter()
            .for_each(|u| f(u.map(str::as_bytes))),
        // batch_input accepts nothing else.
        _ => (0..array.len()).for_each(|_| f(None)),
    }
}

/// The answers of a batch over one Arrow array: `allowed` (and `line`), nulls for null URLs.
fn decide_array(matcher: &Matcher, cache: &mut Cache, array: &ArrayRef, lines: bool) -> ArrayRef {
    let mut allowed = BooleanBuilder::with_capacity(array.len());
    let mut line = Int32Builder::with_capacity(if lines { array.len() } else { 0 });
    for_each_url(array, |url| match url {
        Some(url) => {
            let d = matcher.decide_with(cache, url);
            allowed.append_value(d.is_allowed());
            if lines {
                line.append_option(d.rule().map(|r| r.line() as i32));
            }
        }
        None => {
            allowed.append_null();
            if lines {
                line.append_null();
            }
        }
    });
    let allowed: BooleanArray = allowed.finish();
    if !lines {
        return Arc::new(allowed);
    }
    let line: Int32Array = line.finish();
    let nulls = allowed.nulls().cloned();
    Arc::new(StructArray::new(
        decision_fields(),
        vec![Arc::new(allowed), Arc::new(line)],
        nulls,
    ))
}

/// The fields of `decide_many`'s Arrow answer: `allowed` and `line`.
fn decision_fields() -> Fields {
    Fields::from(vec![
        Field::new("allowed", DataType::Boolean, true),
        Field::new("line", DataType::Int32, true),
    ])
}

/// Converts a [`robotsmatch::Decision`] into its Python form.
fn py_decision(d: robotsmatch::Decision<'_>) -> PyDecision {
    let rule = d.rule();
    PyDecision {
        allowed: d.is_allowed(),
        kind: rule.map(|r| r.kind().as_str().to_string()),
        pattern: rule.map(|r| r.pattern_lossy().into_owned()),
        line: rule.map(|r| r.line()),
    }
}

/// The URL of a one-URL call as bytes.
fn one_url(url: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    let mut buf = Vec::new();
    push_url(&mut buf, url, &|| "url".to_string())?;
    Ok(buf)
}

impl PyRobots {
    /// The groups that apply to `agent` under `profile`, chosen as for matching.
    fn selection(&self, agent: &str, profile: &str) -> PyResult<robotsmatch::Selection> {
        let agent = agent_named(agent)?;
        let profile = profile_named(profile)?;
        Ok(robotsmatch::agent::select(
            &self.robots,
            &catalog::agent_for(agent),
            profile.merge_groups,
        ))
    }
}

#[pymethods]
impl PyRobots {
    /// Parses a robots.txt body (`bytes` or `str`; any bytes are accepted). Never fails on
    /// content: only the first 500 KiB are parsed, as by Google's crawler, and the line that
    /// limit cuts is dropped. Raises `TypeError` for anything but bytes, bytearray or str.
    #[staticmethod]
    fn parse(py: Python<'_>, body: &Bound<'_, PyAny>) -> PyResult<PyRobots> {
        let body: Arc<[u8]> = body_bytes(body)?.into();
        let robots = {
            let body = body.clone();
            py.detach(move || Robots::parse(&body))
        };
        Ok(PyRobots {
            body,
            robots: Arc::new(robots),
        })
    }

    /// Compiles the rules that apply to `agent` (a product token such as `Googlebot`, a full
    /// user-agent string, or a name from the crawler catalog) under `profile` (`"google"`,
    /// the default, or `"legacy"`). Raises `ValueError` for an empty `agent`.
    #[pyo3(signature = (agent, profile = "google"))]
    fn matcher(&self, py: Python<'_>, agent: &str, profile: &str) -> PyResult<PyMatcher> {
        let agent = agent_named(agent)?;
        let profile = profile_named(profile)?;
        let robots = self.robots.clone();
        let agent_owned = agent.to_string();
        let matcher = py.detach(move || {
            MatcherBuilder::new()
                .profile(profile)
                .build(&robots, catalog::agent_for(&agent_owned))
        });
        Ok(PyMatcher {
            body: self.body.clone(),
            agent: agent.to_string(),
            profile,
            matcher,
            caches: Mutex::new(Vec::new()),
        })
    }

    /// The URLs of the file's `Sitemap:` lines, in file order.
    #[getter]
    fn sitemaps(&self) -> Vec<String> {
        self.robots
            .sitemaps()
            .iter()
            .map(|s| s.url().to_string())
            .collect()
    }

    /// What the parser ignored or read differently, one message per warning
    /// (`"line 7: key 'disalow' is read as 'disallow'"`).
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.robots
            .warnings()
            .iter()
            .map(|w| w.to_string())
            .collect()
    }

    /// The `Crawl-delay` (seconds) that applies to `agent` under `profile`: the first
    /// non-negative number on a `Crawl-delay` line written under the `user-agent` lines that
    /// name the crawler (or under `*` when no group names it), in the groups chosen as for
    /// matching; `None` when there is none. A crawler does not inherit the delay of another
    /// crawler whose `user-agent` line shares its group. Google ignores `Crawl-delay`; other
    /// crawlers honour it.
    #[pyo3(signature = (agent, profile = "google"))]
    fn crawl_delay(&self, agent: &str, profile: &str) -> PyResult<Option<f64>> {
        let selection = self.selection(agent, profile)?;
        Ok(selection.crawl_delay(&self.robots).map(|d| d.seconds()))
    }

    /// The `Request-rate` that applies to `agent` under `profile` (chosen as `crawl_delay`):
    /// `(requests, seconds)`, from a value such as `1/5` or `3/1m`; `None` when there is none.
    #[pyo3(signature = (agent, profile = "google"))]
    fn request_rate(&self, agent: &str, profile: &str) -> PyResult<Option<(u32, f64)>> {
        let selection = self.selection(agent, profile)?;
        Ok(selection
            .request_rate(&self.robots)
            .map(|r| (r.requests(), r.seconds())))
    }

    /// The body as given (bytes).
    #[getter]
    fn body<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.body)
    }

    /// The size of the body in bytes.
    #[getter]
    fn size(&self) -> usize {
        self.robots.size()
    }

    /// True when the body was over the 500 KiB parse limit and was cut.
    #[getter]
    fn truncated(&self) -> bool {
        self.robots.parsed_size() < self.robots.size()
    }

    /// The number of rules in all groups.
    #[getter]
    fn rule_count(&self) -> usize {
        self.robots.rule_count()
    }

    fn __repr__(&self) -> String {
        format!(
            "Robots(size={}, groups={}, rules={}, sitemaps={}{})",
            self.robots.size(),
            self.robots.groups().len(),
            self.robots.rule_count(),
            self.robots.sitemaps().len(),
            if self.truncated() { ", truncated" } else { "" }
        )
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let parse = py.get_type::<PyRobots>().getattr("parse")?;
        Ok((parse, (PyBytes::new(py, &self.body),)))
    }
}

#[pymethods]
impl PyMatcher {
    /// Parses `body` (bytes or str) and compiles the rules for `agent` under `profile`:
    /// the same as `Robots.parse(body).matcher(agent, profile)`.
    #[new]
    #[pyo3(signature = (body, agent, profile = "google"))]
    fn new(
        py: Python<'_>,
        body: &Bound<'_, PyAny>,
        agent: &str,
        profile: &str,
    ) -> PyResult<PyMatcher> {
        PyRobots::parse(py, body)?.matcher(py, agent, profile)
    }

    /// True when the crawler may fetch `url` (str or UTF-8 bytes; an absolute URL or a path).
    fn allowed(&self, url: &Bound<'_, PyAny>) -> PyResult<bool> {
        let url = one_url(url)?;
        Ok(self.matcher.decide(&url).is_allowed())
    }

    /// The verdict for `url` and the rule that decided it.
    fn decide(&self, url: &Bound<'_, PyAny>) -> PyResult<PyDecision> {
        let url = one_url(url)?;
        Ok(py_decision(self.matcher.decide(&url)))
    }

    /// Verdicts for many URLs, with the GIL released while deciding.
    ///
    /// `urls` is a list (or tuple) of str/bytes, answered with a list of bool; or any Arrow
    /// array or chunked array of strings (pyarrow, polars, ... through the Arrow PyCapsule
    /// interface, read without copying), answered with a pyarrow `BooleanArray` (a
    /// `ChunkedArray` for chunked input) in which null URLs give null.
    fn allowed_many<'py>(
        &self,
        py: Python<'py>,
        urls: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.batch(py, urls, false)
    }

    /// Verdicts and deciding lines for many URLs, with the GIL released while deciding.
    ///
    /// A list (or tuple) of str/bytes is answered with a list of `(allowed, line)` tuples
    /// (`line` is None when no rule decided); an Arrow array or chunked array of strings
    /// with a pyarrow struct array `{allowed: bool, line: int32}` of the same shape (null for
    /// null URLs).
    fn decide_many<'py>(
        &self,
        py: Python<'py>,
        urls: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.batch(py, urls, true)
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

    /// The engine chosen for the rules (`trivial`, `direct`, `dense`, `lazy`, `tree`,
    /// `split`, `reference`).
    #[getter]
    fn engine(&self) -> &'static str {
        self.matcher.engine().as_str()
    }

    /// The number of rules that apply to the agent.
    #[getter]
    fn rule_count(&self) -> usize {
        self.matcher.rules().len()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Matcher(agent={}, profile='{}', rules={}, engine='{}')",
            py_repr(py, &self.agent)?,
            self.profile.name,
            self.matcher.rules().len(),
            self.matcher.engine().as_str()
        ))
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Reduced<'py, (Bound<'py, PyBytes>, String, &'static str)>> {
        let cls = py.get_type::<PyMatcher>().into_any();
        Ok((
            cls,
            (
                PyBytes::new(py, &self.body),
                self.agent.clone(),
                self.profile.name,
            ),
        ))
    }
}

impl PyMatcher {
    /// A warm cache from the matcher's stock, or a new one.
    fn take_cache(&self) -> Cache {
        let stock = self.caches.lock().ok().and_then(|mut c| c.pop());
        stock.unwrap_or_else(|| self.matcher.create_cache())
    }

    /// Returns a cache to the stock (at most a few are kept).
    fn put_cache(&self, cache: Cache) {
        if let Ok(mut caches) = self.caches.lock() {
            if caches.len() < 8 {
                caches.push(cache);
            }
        }
    }

    /// `allowed_many` (`lines` false) and `decide_many` (`lines` true).
    fn batch<'py>(
        &self,
        py: Python<'py>,
        urls: &Bound<'py, PyAny>,
        lines: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let input = batch_input(urls)?;
        let matcher = &self.matcher;
        let mut cache = self.take_cache();
        let out = match input {
            BatchInput::List(batch) => {
                let decided: Vec<(bool, Option<u32>)> = py.detach(|| {
                    batch
                        .iter()
                        .map(|url| {
                            let d = matcher.decide_with(&mut cache, url);
                            (d.is_allowed(), d.rule().map(|r| r.line()))
                        })
                        .collect()
                });
                self.put_cache(cache);
                if lines {
                    PyList::new(py, decided)?.into_any()
                } else {
                    PyList::new(py, decided.into_iter().map(|(a, _)| a))?.into_any()
                }
            }
            BatchInput::Array(array) => {
                let out = py.detach(|| decide_array(matcher, &mut cache, &array, lines));
                self.put_cache(cache);
                let exported = PyArray::from_array_ref(out).into_pyobject(py)?;
                py.import(pyo3::intern!(py, "pyarrow"))?
                    .getattr(pyo3::intern!(py, "array"))?
                    .call1((exported,))?
            }
            BatchInput::Chunked(chunks) => {
                let out: Vec<ArrayRef> = py.detach(|| {
                    chunks
                        .iter()
                        .map(|a| decide_array(matcher, &mut cache, a, lines))
                        .collect()
                });
                self.put_cache(cache);
                let field = if lines {
                    Field::new("decision", DataType::Struct(decision_fields()), true)
                } else {
                    Field::new("allowed", DataType::Boolean, true)
                };
                PyChunkedArray::try_new(out, Arc::new(field))?.into_pyarrow(py)?
            }
        };
        Ok(out)
    }
}

#[pymethods]
impl PyDecision {
    /// A decision as `Matcher.decide` gives it (mostly for unpickling).
    #[new]
    #[pyo3(signature = (allowed, kind = None, pattern = None, line = None))]
    fn new(
        allowed: bool,
        kind: Option<String>,
        pattern: Option<String>,
        line: Option<u32>,
    ) -> PyResult<Self> {
        if let Some(k) = &kind {
            if k != "allow" && k != "disallow" {
                return Err(PyValueError::new_err(format!(
                    "kind must be 'allow', 'disallow' or None, not '{k}'"
                )));
            }
        }
        Ok(PyDecision {
            allowed,
            kind,
            pattern,
            line,
        })
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let opt = |s: &Option<String>| match s {
            Some(s) => py_repr(py, s),
            None => Ok("None".to_string()),
        };
        Ok(format!(
            "Decision(allowed={}, kind={}, pattern={}, line={})",
            if self.allowed { "True" } else { "False" },
            opt(&self.kind)?,
            opt(&self.pattern)?,
            self.line.map_or("None".to_string(), |l| l.to_string())
        ))
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py, DecisionArgs>> {
        let cls = py.get_type::<PyDecision>().into_any();
        Ok((
            cls,
            (
                self.allowed,
                self.kind.clone(),
                self.pattern.clone(),
                self.line,
            ),
        ))
    }
}

/// The native part of the `robotsmatch` package.
#[pymodule]
fn _robotsmatch(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRobots>()?;
    m.add_class::<PyMatcher>()?;
    m.add_class::<PyDecision>()?;
    m.add_class::<bulk::PyStore>()?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
