//! The studio tests, one binary (docs/design/tests.md): its HTTP API
//! against the command line's `--json` and the library (`api`,
//! `designer`, `flow`), and hostile clients. They stay
//! apart from the other binaries because several time the server to
//! within a second, which a busy neighbour in the same process could
//! spoil. The page in a real browser is tests/browser/studio_browser.py.

mod api;
#[path = "../cli/mod.rs"]
mod cli;
mod designer;
mod flow;
mod hostile;
