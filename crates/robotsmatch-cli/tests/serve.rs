//! `robotsmatch serve`: the real binary starts on an ephemeral loopback port, prints its
//! address, answers the page and the API, and is killed. (The API itself is tested in
//! `crates/robotsmatch-serve/tests/api.rs`.)
#![cfg(feature = "serve")]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// Kills the server when the test ends, passed or not.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One HTTP/1.1 request with `Connection: close`: the status code and the whole reply.
fn http(addr: &str, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connect to the server");
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut reply = String::new();
    s.read_to_string(&mut reply).expect("read the reply");
    let status = reply
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {reply:?}"));
    (status, reply)
}

#[test]
fn serve_starts_on_a_free_port_prints_it_and_answers() {
    let child = Command::new(env!("CARGO_BIN_EXE_robotsmatch"))
        .args(["serve", "--bind", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start robotsmatch serve");
    let mut server = Server(child);
    // Read the first line and close the pipe: a reader that goes away must not stop the server.
    let mut line = String::new();
    BufReader::new(server.0.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("read the first line");
    let addr = line
        .trim()
        .strip_prefix("robotsmatch serve: listening on http://")
        .and_then(|a| a.strip_suffix('/'))
        .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
        .to_string();
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    assert_ne!(addr, "127.0.0.1:0", "the real port is printed");

    let (status, page) = http(&addr, "GET", "/", "");
    assert_eq!(status, 200);
    assert!(page.contains("robots.txt tester"), "{page}");

    let body = r#"{"robots": "User-agent: *\nDisallow: /private\n", "agent": "Googlebot", "urls": ["/private/x", "/public"]}"#;
    let (status, reply) = http(&addr, "POST", "/api/check", body);
    assert_eq!(status, 200, "{reply}");
    let json = reply.split("\r\n\r\n").nth(1).expect("body");
    let v: serde_json::Value = serde_json::from_str(json).expect("JSON");
    assert_eq!(v["results"][0]["verdict"], "disallowed");
    assert_eq!(v["results"][0]["rule"]["line"], 2);
    assert_eq!(v["results"][1]["verdict"], "allowed");
    assert!(
        server.0.try_wait().expect("wait").is_none(),
        "still running"
    );
}

#[test]
fn serve_with_a_bad_bind_address_is_a_usage_error() {
    let o = Command::new(env!("CARGO_BIN_EXE_robotsmatch"))
        .args(["serve", "--bind", "localhost"])
        .output()
        .expect("run robotsmatch serve");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--bind 'localhost'"), "{err}");
}

/// Starts `robotsmatch serve --bind 127.0.0.1:0 EXTRA...`; returns it and its address.
fn start(extra: &[&str]) -> (Server, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_robotsmatch"))
        .args(["serve", "--bind", "127.0.0.1:0"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start robotsmatch serve");
    let mut server = Server(child);
    let mut line = String::new();
    BufReader::new(server.0.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("read the first line");
    let addr = line
        .trim()
        .strip_prefix("robotsmatch serve: listening on http://")
        .and_then(|a| a.strip_suffix('/'))
        .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
        .to_string();
    (server, addr)
}

/// The body of a lint request for a 500 KiB file that lint works on until its budget runs
/// out (minutes before issue 16): rules `/*a*a...*ab`.
fn expensive_lint() -> String {
    let mut robots = String::from("User-agent: *\n");
    for i in 0.. {
        let line = format!("Disallow: /{}b\n", "*a".repeat(3 * i + 1));
        if robots.len() + line.len() > 500 * 1024 {
            break;
        }
        robots.push_str(&line);
    }
    serde_json::json!({ "robots": robots }).to_string()
}

/// CPU seconds (user + system) the process `pid` has used so far (Linux).
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("read /proc stat");
    let fields: Vec<&str> = stat[stat.rfind(')').expect("comm") + 2..]
        .split(' ')
        .collect();
    // After the command name: state is field 3, utime 14 and stime 15 (man 5 proc).
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    ticks / 100.0
}

#[cfg(target_os = "linux")]
#[test]
fn issue16_work_stops_when_its_request_is_answered() {
    let (server, addr) = start(&["--time-limit", "0.3"]);
    let (status, reply) = http(&addr, "POST", "/api/lint", &expensive_lint());
    assert_eq!(status, 503, "{reply}");
    assert!(reply.contains("time limit of 300 ms"), "{reply}");
    // The work saw its cancel flag: the server is idle from now on.
    std::thread::sleep(Duration::from_millis(200));
    let before = cpu_seconds(server.0.id());
    std::thread::sleep(Duration::from_millis(1500));
    let used = cpu_seconds(server.0.id()) - before;
    assert!(
        used < 0.3,
        "the server used {used} s of CPU after answering 503"
    );
}

#[cfg(unix)]
#[test]
fn issue16_ctrl_c_stops_the_server_and_its_work_promptly() {
    let (mut server, addr) = start(&["--time-limit", "600"]);
    let body = expensive_lint();
    for _ in 0..3 {
        let (addr, body) = (addr.clone(), body.clone());
        std::thread::spawn(move || {
            let _ = std::panic::catch_unwind(|| http(&addr, "POST", "/api/lint", &body));
        });
    }
    std::thread::sleep(Duration::from_millis(700));
    assert!(server.0.try_wait().unwrap().is_none(), "still running");
    let signalled = std::time::Instant::now();
    let kill = Command::new("kill")
        .args(["-INT", &server.0.id().to_string()])
        .status()
        .expect("run kill");
    assert!(kill.success());
    // The lints would run for seconds (minutes before issue 16); the server stops at once.
    let status = loop {
        if let Some(status) = server.0.try_wait().unwrap() {
            break status;
        }
        assert!(
            signalled.elapsed() < Duration::from_secs(5),
            "still running 5 s after Ctrl-C"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(0));
}

#[test]
fn issue16_small_requests_are_answered_while_large_ones_run() {
    let (_server, addr) = start(&["--time-limit", "600", "--max-expensive", "1"]);
    let body = expensive_lint();
    let (tx, rx) = std::sync::mpsc::channel();
    // Ten large requests: before issue 16 they filled the server's eight blocking threads.
    for _ in 0..10 {
        let (addr, body, tx) = (addr.clone(), body.clone(), tx.clone());
        std::thread::spawn(move || {
            let answer = std::panic::catch_unwind(|| http(&addr, "POST", "/api/lint", &body));
            let _ = tx.send(("large", answer.map(|a| a.0).unwrap_or(0)));
        });
    }
    std::thread::sleep(Duration::from_millis(700));
    let small = r#"{"robots": "User-agent: *\nDisallow: /private\n", "agent": "Googlebot", "urls": ["/private/x"]}"#;
    let (status, reply) = http(&addr, "POST", "/api/check", small);
    assert_eq!(status, 200, "{reply}");
    tx.send(("small", status)).unwrap();
    // The small request was answered before any of the large ones.
    let (first, _) = rx.recv().unwrap();
    assert_eq!(first, "small");
}

#[test]
fn issue16_half_sent_requests_are_closed_and_connections_capped() {
    let (_server, addr) = start(&["--max-connections", "20", "--header-timeout", "1"]);
    // Twenty connections that send half a request head and stop.
    let mut half: Vec<TcpStream> = (0..20)
        .map(|_| {
            let mut s = TcpStream::connect(&addr).expect("connect");
            s.write_all(b"POST /api/check HTTP/1.1\r\nHost: x\r\nContent-")
                .unwrap();
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    // One more is over the cap: answered 503 at once.
    let mut extra = TcpStream::connect(&addr).expect("connect");
    extra
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut reply = String::new();
    let _ = extra.read_to_string(&mut reply);
    assert!(
        reply.starts_with("HTTP/1.1 503 ") && reply.contains("too many connections"),
        "{reply:?}"
    );
    // After the header timeout the half-sent requests are closed, and the server answers.
    for s in &mut half {
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut rest = Vec::new();
        let closed = s.read_to_end(&mut rest).is_ok();
        assert!(closed, "a half-sent request is still open");
    }
    let (status, page) = http(&addr, "GET", "/", "");
    assert_eq!(status, 200, "{page}");
}

#[test]
fn issue16_an_idle_kept_alive_connection_is_closed() {
    let (_server, addr) = start(&["--header-timeout", "1"]);
    let mut s = TcpStream::connect(&addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    // One whole request, kept alive; then nothing.
    write!(s, "GET /app.css HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut reply = Vec::new();
    let closed = s.read_to_end(&mut reply).is_ok();
    let reply = String::from_utf8_lossy(&reply);
    assert!(reply.starts_with("HTTP/1.1 200 "), "{reply}");
    // read_to_end returned: the server closed the idle connection (before the 10 s read
    // timeout of this client).
    assert!(closed, "the idle connection is still open");
}
