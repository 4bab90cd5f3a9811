//! `studio [--port P] [--listen ADDR] [--rules FILE]... [--bench]`: serves the
//! designer's studio (one page and its JSON API, [`super`]) on
//! 127.0.0.1 unless told another address, prints its URL, and stops
//! cleanly on Ctrl-C.

use super::budget::MAX_BUDGET_MS;
use super::guard::Guard;
use super::players::Players;
use super::server::Manners;
use super::Studio;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// Options of `studio`.
#[derive(clap::Args, Debug)]
pub struct StudioArgs {
    /// The port (0: any free port; the URL printed says which).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on (default 127.0.0.1: this machine only).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub listen: IpAddr,
    /// A rule file replacing the default of its domain (nonogram: rules/nonogram/top10.rules; Witness: rules/witness/learned-game.rules; Flow: rules/flow/learned.rules, the learned set, beside the built-in control set rules/flow/control.rules; all built in). At most one per domain.
    #[arg(long)]
    pub rules: Vec<PathBuf>,
    /// Each request's time budget in milliseconds unless it asks for another (`?budget_ms=N`); past it the answer is `unknown`.
    #[arg(long, default_value_t = 5_000, value_parser = clap::value_parser!(u64).range(1..=MAX_BUDGET_MS))]
    pub budget_ms: u64,
    /// Connections open at once; one more is answered 503 and closed at once.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub max_connections: u64,
    /// The time in milliseconds a client has to send a request's head (also on a kept-alive connection, from the previous answer), and then its body; past it the connection is closed (408 for a body).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(100..=600_000))]
    pub read_timeout_ms: u64,
    /// Megabytes of memory the server may hold, all its requests together (Z3 included); past them a complete search stops, `"stopped": "memory"`.
    #[arg(long, default_value_t = stratsynth::domains::nonogram::board::limits::DEFAULT_MEMORY_MB, value_parser = clap::value_parser!(u64).range(1..=1 << 30))]
    pub memory: u64,
    /// Instead of serving: time the page's update (the analyze route) on the bundled 25x25 pictures and on 10x10 and 14x14 Flow puzzles, and print the figures.
    #[arg(long)]
    pub bench: bool,
}

/// `studio`.
pub fn run(args: &StudioArgs) -> Result<ExitCode, String> {
    let players = Arc::new(Players::load(&args.rules)?);
    if args.bench {
        super::bench::run(&players, args.budget_ms)?;
        return Ok(ExitCode::SUCCESS);
    }
    let manners = Manners {
        max_connections: args.max_connections as usize,
        read_timeout: Duration::from_millis(args.read_timeout_ms),
    };
    super::server::run(SocketAddr::new(args.listen, args.port), manners, |address| {
        let guard = Guard::new(address);
        let (nonogram, witness, flow) = (&players.nonogram_name, &players.witness.name, &players.flow.name);
        let token = guard.token.as_ref().map_or(String::new(), |t| format!("?token={t}"));
        if guard.token.is_some() {
            eprintln!(
                "warning: --listen {} serves the studio beyond this machine: whoever can reach it and has the URL below (with its token) can use it",
                args.listen
            );
        }
        println!("stratsynth studio: http://{address}/{token} (nonogram rules {nonogram}, Witness rules {witness}, Flow rules {flow}; Ctrl-C stops)");
        let memory = stratsynth::domains::nonogram::board::limits::hold_memory(args.memory);
        Ok(Studio::new(Arc::clone(&players), (args.budget_ms, manners.read_timeout), guard, memory))
    })?;
    eprintln!("stratsynth studio: stopped");
    Ok(ExitCode::SUCCESS)
}
