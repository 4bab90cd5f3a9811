//! The studio against hostile clients, on loopback only (127.0.0.1), each
//! test's connections bounded in count and time: slow clients that hold a
//! half-sent head or body, idle connections, a header bomb, more
//! connections than allowed, more requests at work than allowed, requests
//! from another site or with the wrong content type, wrongly typed and
//! contradictory fields, work that must end with its budget, and work
//! whose client went away.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_stratsynth");

/// The studio on a free loopback port with short limits, stopped when dropped.
struct Studio {
    child: Child,
    address: String,
}

impl Studio {
    /// The studio with at most `connections` open, `extra` options.
    fn start(connections: usize, extra: &[&str]) -> Studio {
        let mut child = Command::new(BIN)
            .args(["studio", "--port", "0", "--read-timeout-ms", "1000", "--max-connections"])
            .arg(connections.to_string())
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the studio starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let start = line.find("http://").expect("the studio prints its URL") + "http://".len();
        let address = line[start..].split('/').next().unwrap().to_string();
        assert!(address.starts_with("127.0.0.1:"), "{line}");
        Studio { child, address }
    }

    fn connect(&self) -> TcpStream {
        let s = TcpStream::connect(&self.address).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        s
    }

    /// A whole request sent raw; the status and the body of the answer.
    fn raw(&self, request: &str) -> (u16, String) {
        let mut s = self.connect();
        s.write_all(request.as_bytes()).unwrap();
        answer_of(&mut s)
    }

    /// POSTs JSON `body` to `path` as the page does.
    fn post(&self, path: &str, body: &str) -> (u16, Value) {
        let request = format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.address,
            body.len()
        );
        let (status, text) = self.raw(&request);
        (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}: {text}")))
    }

    /// `n` POSTs of JSON `body` to `path` at once, each on a thread of its
    /// own answering the status.
    fn posts_at_once(&self, n: usize, path: &str, body: &str) -> Vec<std::thread::JoinHandle<u16>> {
        let request = format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.address,
            body.len()
        );
        (0..n)
            .map(|_| {
                let (address, request) = (self.address.clone(), request.clone());
                std::thread::spawn(move || {
                    let mut s = TcpStream::connect(&address).unwrap();
                    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
                    s.write_all(request.as_bytes()).unwrap();
                    answer_of(&mut s).0
                })
            })
            .collect()
    }

    /// `GET /` answered with the page, within `within`.
    fn page_answers_within(&self, within: Duration) -> bool {
        let started = Instant::now();
        let (status, text) =
            self.raw(&format!("GET / HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", self.address));
        status == 200 && text.contains("stratsynth studio") && started.elapsed() < within
    }

    /// The server's resident memory in kB.
    fn rss_kb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }
}

impl Drop for Studio {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads an HTTP answer to its end (the connection closed): its status and
/// body (status 0 if the connection closed without an answer).
fn answer_of(s: &mut TcpStream) -> (u16, String) {
    let mut bytes = vec![];
    let _ = s.read_to_end(&mut bytes);
    let text = String::from_utf8_lossy(&bytes).to_string();
    let status = text.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b).to_string();
    (status, body)
}

#[test]
fn slow_and_idle_clients_cannot_hold_the_server() {
    let studio = Studio::start(8, &[]);
    let head = |n: usize| {
        format!("POST /api/nonogram/analyze HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"width\":{n}", studio.address)
    };
    // 8 (the limit) hold a half-sent body, 8 more a half-sent head, 4 say nothing
    let mut held: Vec<TcpStream> = (0..8)
        .map(|n| {
            let mut s = studio.connect();
            s.write_all(head(n).as_bytes()).unwrap();
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    for _ in 0..8 {
        let mut s = studio.connect();
        s.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ").unwrap();
        held.push(s);
    }
    held.extend((0..4).map(|_| studio.connect()));
    // past the limit: 503 at once, the accept loop not blocked
    let started = Instant::now();
    let (status, body) = studio.raw(&format!("GET / HTTP/1.1\r\nHost: {}\r\n\r\n", studio.address));
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("busy"), "{body}");
    assert!(started.elapsed() < Duration::from_millis(900), "{:?}", started.elapsed());
    // the held bodies are answered 408 at the read timeout, and closed
    let (status, body) = answer_of(&mut held[0]);
    assert_eq!(status, 408, "{body}");
    assert!(body.contains("did not come whole within 1000 ms"), "{body}");
    // every holder is dropped by the server within the read timeout (and a bit)
    std::thread::sleep(Duration::from_millis(600));
    assert!(studio.page_answers_within(Duration::from_secs(2)));
    for mut s in held {
        let mut rest = vec![];
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        assert!(s.read_to_end(&mut rest).is_ok(), "the server closed the connection");
    }
}

#[test]
fn a_header_bomb_is_refused_without_growing_the_server() {
    let studio = Studio::start(8, &[]);
    let before = studio.rss_kb();
    for _ in 0..4 {
        let mut s = studio.connect();
        s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nX-Bomb: ").unwrap();
        let line = vec![b'a'; 1 << 20];
        let mut sent = 0;
        // the server answers 431 and closes long before 32 MiB are sent
        while sent < 32 << 20 && s.write_all(&line).is_ok() {
            sent += line.len();
        }
        assert!(sent < 32 << 20, "the server read {sent} bytes of one header");
    }
    let (status, _) =
        studio.raw(&format!("GET / HTTP/1.1\r\nHost: {}\r\nX-Long: {}\r\n\r\n", studio.address, "a".repeat(20_000)));
    assert_eq!(status, 431);
    assert!(studio.rss_kb() < before + 20_000, "from {before} kB to {} kB", studio.rss_kb());
    assert!(studio.page_answers_within(Duration::from_secs(2)));
}

#[test]
fn fields_are_typed_strictly_and_named() {
    let studio = Studio::start(8, &[]);
    let cases = [
        ("/api/nonogram/export", json!({"width": 3, "height": 1, "goal": "101", "title": 5}), "`title`"),
        ("/api/nonogram/analyze", json!({"rows": [[1]], "columns": [[1]], "width": 7}), "`width`"),
        ("/api/nonogram/analyze", json!({"rows": [[1]], "columns": [[1]], "goal": "1"}), "`rows`"),
        ("/api/nonogram/analyze", json!({"width": 1, "height": 1, "goal": "1", "colour": 1}), "`colour`"),
        ("/api/nonogram/random", json!({"width": 5.5, "height": 5}), "`width`"),
        (
            "/api/witness/generate",
            json!({"puzzle": "(width: 1, height: 1, start: (0, 0), goal: (1, 1))", "at": [[0, 0]], "marks": 1}),
            "`marks`",
        ),
        (
            "/api/witness/generate",
            json!({"puzzle": "(width: 1, height: 1, start: (0, 0), goal: (1, 1))", "at": [[0, "0"]]}),
            "`at[0]",
        ),
    ];
    for (path, body, field) in cases {
        let (status, answer) = studio.post(path, &body.to_string());
        assert_eq!(status, 400, "{path} {body}: {answer}");
        assert!(answer["error"].as_str().is_some_and(|m| m.contains(field)), "{path} {body}: {answer}");
    }
}

#[test]
fn requests_past_the_places_at_work_get_503_at_once() {
    let studio = Studio::start(64, &[]);
    let big = json!({"puzzle": "(width: 8, height: 8, start: (0, 0), goal: (8, 8))"}).to_string();
    let busy = studio.posts_at_once(16, "/api/witness/analyze?budget_ms=2500", &big);
    std::thread::sleep(Duration::from_millis(700));
    let started = Instant::now();
    let (status, answer) = studio.post("/api/nonogram/analyze", &json!({"rows": [[1]], "columns": [[1]]}).to_string());
    assert_eq!(status, 503, "{answer}");
    assert!(started.elapsed() < Duration::from_millis(500), "{:?}", started.elapsed());
    assert!(studio.page_answers_within(Duration::from_secs(1)));
    for b in busy {
        assert_eq!(b.join().unwrap(), 200);
    }
    // the work ended with its budget: places are free again
    let (status, answer) = studio.post("/api/nonogram/analyze", &json!({"rows": [[1]], "columns": [[1]]}).to_string());
    assert_eq!((status, answer["solutions"].clone()), (200, json!(1)));
}

#[test]
fn only_the_studios_own_page_drives_it() {
    let studio = Studio::start(8, &[]);
    let (address, body) = (studio.address.clone(), r#"{"rows": [[1]], "columns": [[1]]}"#);
    let post = |headers: &str| {
        studio.raw(&format!(
            "POST /api/nonogram/analyze HTTP/1.1\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ))
    };
    let json = "Content-Type: application/json\r\n";
    let refused = [
        (format!("Host: {address}\r\nOrigin: http://evil.example\r\n{json}"), 403, "Origin"),
        (format!("Host: {address}\r\nOrigin: null\r\n{json}"), 403, "Origin"),
        (format!("Host: evil.example:{}\r\n{json}", &address[10..]), 403, "Host"),
        (format!("Host: 127.0.0.1:1\r\n{json}"), 403, "Host"),
        (json.to_string(), 403, "Host"),
        (format!("Host: {address}\r\nContent-Type: text/plain\r\n"), 415, "application/json"),
        (format!("Host: {address}\r\nContent-Type: application/x-www-form-urlencoded\r\n"), 415, "application/json"),
        (format!("Host: {address}\r\n"), 415, "application/json"),
    ];
    for (headers, status, said) in refused {
        let (got, answer) = post(&headers);
        assert_eq!(got, status, "{headers}: {answer}");
        assert!(answer.contains(said), "{headers}: {answer}");
    }
    // the page's own requests, and those of a client that sends no Origin
    for headers in [
        format!("Host: {address}\r\nOrigin: http://{address}\r\n{json}"),
        format!("Host: localhost:{}\r\n{json}", &address[10..]),
    ] {
        let (got, answer) = post(&headers);
        assert_eq!(got, 200, "{headers}: {answer}");
    }
    // a file route takes the file's bytes as application/octet-stream
    let ron = "(width: 1, height: 1, start: (0, 0), goal: (1, 1))";
    for (kind, status) in [("application/octet-stream", 200), ("application/json", 415)] {
        let request = format!("POST /api/witness/open HTTP/1.1\r\nHost: {address}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{ron}", ron.len());
        assert_eq!(studio.raw(&request).0, status, "{kind}");
    }
}

#[test]
fn beyond_loopback_a_warning_and_a_token() {
    let mut child = Command::new(BIN)
        .args(["studio", "--port", "0", "--listen", "0.0.0.0", "--read-timeout-ms", "1000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let mut warning = String::new();
    BufReader::new(child.stderr.take().unwrap()).read_line(&mut warning).unwrap();
    assert!(warning.starts_with("warning: --listen 0.0.0.0 serves the studio beyond this machine"), "{warning}");
    let url = line.split_whitespace().find(|w| w.starts_with("http://")).unwrap();
    let (port, token) = url.trim_start_matches("http://0.0.0.0:").split_once("/?token=").expect("a token in the URL");
    assert!(token.len() >= 32, "{token}");
    // only ever sent to loopback
    let studio = Studio { address: format!("127.0.0.1:{port}"), child };
    let host = &studio.address;
    let page = |query: &str| studio.raw(&format!("GET /{query} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"));
    assert_eq!(page("").0, 403);
    assert_eq!(page("?token=wrong").0, 403);
    let (status, html) = page(&format!("?token={token}"));
    assert_eq!(status, 200);
    assert!(html.contains(&format!(r#"<meta name="studio-token" content="{token}">"#)));
    let body = r#"{"rows": [[1]], "columns": [[1]]}"#;
    let post = |extra: &str| {
        studio.raw(&format!("POST /api/nonogram/analyze HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len())).0
    };
    assert_eq!(post(""), 403);
    assert_eq!(post("X-Studio-Token: wrong\r\n"), 403);
    assert_eq!(post(&format!("X-Studio-Token: {token}\r\n")), 200);
}

/// An 8x8 puzzle with a dot on every vertex and the goal of the other
/// colour: no solution, and proving it is a search of every Hamiltonian
/// path.
fn hard_8x8() -> String {
    let dots: Vec<String> = (0..=8).flat_map(|x| (0..=8).map(move |y| format!("({x}, {y})"))).collect();
    format!("(width: 8, height: 8, start: (0, 0), goal: (8, 1), dots: [{}])", dots.join(", "))
}

#[test]
fn work_ends_with_its_budget_so_sixteen_hard_puzzles_cannot_lock_the_server() {
    let studio = Studio::start(64, &[]);
    let puzzle = hard_8x8();
    let hard: Vec<_> = (0..16)
        .map(|i| {
            let address = studio.address.clone();
            let (path, body) = match i % 2 {
                0 => ("/api/witness/solutions", json!({"puzzle": puzzle})),
                _ => ("/api/witness/generate", json!({"puzzle": puzzle, "at": [[0, 0], [1, 1]]})),
            };
            std::thread::spawn(move || {
                let started = Instant::now();
                let mut s = TcpStream::connect(&address).unwrap();
                s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
                let body = body.to_string();
                let request = format!("POST {path}?budget_ms=1500 HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len());
                s.write_all(request.as_bytes()).unwrap();
                let (status, answer) = answer_of(&mut s);
                (status, answer, started.elapsed())
            })
        })
        .collect();
    for h in hard {
        let (status, answer, took) = h.join().unwrap();
        assert_eq!(status, 200, "{answer}");
        assert!(answer.contains(r#""stopped":"timeout""#), "{answer}");
        assert!(took < Duration::from_millis(2000), "answered after {took:?} (budget 1.5 s)");
    }
    // their work stopped with them: every place at work is free at once
    std::thread::sleep(Duration::from_millis(100));
    let (status, answer) = studio.post(
        "/api/witness/analyze",
        &json!({"puzzle": "(width: 1, height: 1, start: (0, 0), goal: (1, 1))"}).to_string(),
    );
    assert_eq!((status, answer["solutions"].clone()), (200, json!(2)), "{answer}");
}

#[test]
fn the_studios_requests_together_stop_at_its_memory() {
    let studio = Studio::start(8, &["--memory", "1"]);
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/specs/puzzles/hakank-p200.non")).unwrap();
    let goal = text.lines().find_map(|l| l.strip_prefix("goal ")).unwrap().trim_matches('"');
    let (status, answer) =
        studio.post("/api/nonogram/analyze", &json!({"width": 25, "height": 25, "goal": goal}).to_string());
    assert_eq!(status, 200, "{answer}");
    assert_eq!((answer["solutions"].clone(), answer["stopped"].clone()), (json!(null), json!("memory")), "{answer}");
}

/// The server's CPU time so far (user and system), in clock ticks (1/100 s).
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    let after_name = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

#[test]
fn the_work_of_a_request_whose_client_went_away_stops_at_once() {
    let studio = Studio::start(64, &[]);
    let puzzle = hard_8x8();
    // sixteen requests that would each work 30 s: every place at work taken
    let abandoned: Vec<TcpStream> = (0..16)
        .map(|i| {
            let path = ["/api/witness/solutions", "/api/witness/analyze"][i % 2];
            let body = json!({"puzzle": puzzle}).to_string();
            let mut s = studio.connect();
            let request = format!("POST {path}?budget_ms=30000 HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", studio.address, body.len());
            s.write_all(request.as_bytes()).unwrap();
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(800));
    let small = json!({"rows": [[1]], "columns": [[1]]}).to_string();
    let (status, answer) = studio.post("/api/nonogram/analyze", &small);
    assert_eq!(status, 503, "every place is at work: {answer}");
    // the clients go away (as a page's AbortController does)
    drop(abandoned);
    std::thread::sleep(Duration::from_millis(300));
    let before = cpu_ticks(studio.child.id());
    std::thread::sleep(Duration::from_secs(1));
    let spent = cpu_ticks(studio.child.id()) - before;
    assert!(spent < 20, "the server spent {spent}/100 s of CPU in the second after its clients went away");
    // every place is free again: sixteen requests at once are all served
    for s in studio.posts_at_once(16, "/api/nonogram/analyze", &small) {
        assert_eq!(s.join().unwrap(), 200);
    }
}
