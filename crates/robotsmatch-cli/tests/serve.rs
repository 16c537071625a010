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
