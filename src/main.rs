//! The `stratsynth` command line: parses arguments and calls the library.
fn main() {}
