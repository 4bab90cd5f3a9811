//! `studio [--port P] [--listen ADDR] [--rules FILE]... [--bench]`: serves the
//! designer's studio (one page and its JSON API, [`super`]) on
//! 127.0.0.1 unless told another address, prints its URL, and stops
//! cleanly on Ctrl-C.

use super::budget::MAX_BUDGET_MS;
use super::players::Players;
use std::net::IpAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// Options of `studio`.
#[derive(clap::Args, Debug)]
pub struct StudioArgs {
    /// The port (0: any free port; the URL printed says which).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on (default 127.0.0.1: this machine only).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub listen: IpAddr,
    /// A rule file replacing the default of its domain (nonogram: rules/nonogram/top10.rules; Witness: rules/witness/learned.rules, both built in). At most one per domain.
    #[arg(long)]
    pub rules: Vec<PathBuf>,
    /// Each request's time budget in milliseconds unless it asks for another (`?budget_ms=N`); past it the answer is `unknown`.
    #[arg(long, default_value_t = 5_000, value_parser = clap::value_parser!(u64).range(1..=MAX_BUDGET_MS))]
    pub budget_ms: u64,
    /// Instead of serving: time the page's update (the analyze route) on the bundled 25x25 pictures and print the figures.
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
    let server = tiny_http::Server::http((args.listen, args.port))
        .map_err(|e| format!("cannot listen on {}:{}: {e}", args.listen, args.port))?;
    let server = Arc::new(server);
    let address = server.server_addr().to_ip().ok_or("the server is not on an IP address")?;
    let stopper = Arc::clone(&server);
    ctrlc::set_handler(move || stopper.unblock()).map_err(|e| format!("cannot catch Ctrl-C: {e}"))?;
    println!(
        "stratsynth studio: http://{address}/ (nonogram rules {}, Witness rules {}; Ctrl-C stops)",
        players.nonogram_name, players.witness.name
    );
    super::serve(server, players, args.budget_ms);
    eprintln!("stratsynth studio: stopped");
    Ok(ExitCode::SUCCESS)
}
