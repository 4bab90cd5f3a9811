//! Measurements, not checks: run with
//! `cargo test --release --test witness measure:: -- --ignored --nocapture`.

use std::time::{Duration, Instant};

use stratsynth::domains::witness::board::oracle::{enumerate_partial_paths, label_partial_paths, Oracle};
use stratsynth::domains::witness::make::generate::{generate, Algorithm, GeneratorConfig};
use stratsynth::domains::witness::search::astar::{astar, SearchConfig};
use stratsynth::domains::witness::search::predicates::{baseline, baseline_or_stevens};
use stratsynth::domains::witness::Path;

#[test]
#[ignore = "a measurement, not a check: run it with --ignored --nocapture"]
fn measure_astar_by_size() {
    println!("size  n  baseline-exp(mean)  pi°-exp(mean)  exp-speedup  time-speedup  baseline-ms(total)");
    for size in ["2x2", "3x3", "2x5", "3x4", "4x4", "4x5", "5x5"] {
        let c = GeneratorConfig::new(size.parse().unwrap(), Algorithm::RandomTriangles);
        let ps = generate(&c, 2023, 100).unwrap();
        let (mut eb, mut es, mut tb, mut ts) = (0u64, 0u64, Duration::ZERO, Duration::ZERO);
        for p in &ps {
            let b = astar(p, &baseline, &SearchConfig::default());
            let s = astar(p, &baseline_or_stevens, &SearchConfig::default());
            assert!(b.solution().is_some() && s.solution().is_some());
            eb += b.expansions;
            es += s.expansions;
            tb += b.elapsed;
            ts += s.elapsed;
        }
        println!(
            "{size}  {}  {:.1}  {:.1}  {:.2}  {:.2}  {:.1}",
            ps.len(),
            eb as f64 / ps.len() as f64,
            es as f64 / ps.len() as f64,
            eb as f64 / es as f64,
            tb.as_secs_f64() / ts.as_secs_f64(),
            tb.as_secs_f64() * 1e3
        );
    }
}

#[test]
#[ignore = "a measurement, not a check: run it with --ignored --nocapture"]
fn measure_mixed_test_set() {
    let c = GeneratorConfig::new("2x2..5x5".parse().unwrap(), Algorithm::RandomTriangles);
    let t = Instant::now();
    let ps = generate(&c, 1, 1000).unwrap();
    println!("generated 1000 Alg-3 puzzles 2x2..5x5 in {:?}", t.elapsed());
    let (mut eb, mut es, mut tb, mut ts) = (0u64, 0u64, Duration::ZERO, Duration::ZERO);
    for p in &ps {
        let b = astar(p, &baseline, &SearchConfig::default());
        let s = astar(p, &baseline_or_stevens, &SearchConfig::default());
        eb += b.expansions;
        es += s.expansions;
        tb += b.elapsed;
        ts += s.elapsed;
    }
    println!(
        "baseline: {eb} expansions, {:?}; baseline+pi°: {es} expansions, {:?}; speedup_E {:.2}, speedup_t {:.2}",
        tb,
        ts,
        eb as f64 / es as f64,
        tb.as_secs_f64() / ts.as_secs_f64()
    );
}

#[test]
#[ignore = "a measurement, not a check: run it with --ignored --nocapture"]
fn measure_oracle_on_4x4() {
    let c = GeneratorConfig::new("4x4".parse().unwrap(), Algorithm::RandomTriangles);
    let ps = generate(&c, 5, 20).unwrap();
    let (mut paths, mut tq, mut tb, mut tsolve) = (0u64, Duration::ZERO, Duration::ZERO, Duration::ZERO);
    for p in &ps {
        let t = Instant::now();
        let mut o = Oracle::new(p);
        assert!(o.completable(&Path::new(p)));
        tsolve += t.elapsed();
        let mut all = Vec::new();
        enumerate_partial_paths(p, &mut |q| all.push(q.clone()));
        paths += all.len() as u64;
        let t = Instant::now();
        let mut o = Oracle::new(p);
        let mut yes = 0u64;
        for q in &all {
            yes += u64::from(o.completable(q));
        }
        tq += t.elapsed();
        let t = Instant::now();
        let mut yes2 = 0u64;
        label_partial_paths(p, &mut |_, c| yes2 += u64::from(c));
        tb += t.elapsed();
        assert_eq!(yes, yes2);
    }
    println!(
        "4x4 x{}: solve from root {:?}/puzzle; {} partial paths/puzzle; oracle (shared memo) {:.2} us/path; brute-force labelling {:?}/puzzle",
        ps.len(),
        tsolve / ps.len() as u32,
        paths / ps.len() as u64,
        tq.as_secs_f64() * 1e6 / paths as f64,
        tb / ps.len() as u32
    );
}

#[test]
#[ignore = "a measurement, not a check: run it with --ignored --nocapture"]
fn measure_large_alg4() {
    for size in ["5x5", "6x6", "7x7", "8x8"] {
        let c = GeneratorConfig::new(size.parse().unwrap(), Algorithm::FromPath);
        let ps = generate(&c, 77, 10).unwrap();
        let cfg = SearchConfig::default().with_time_limit(Duration::from_secs(2));
        let (mut sb, mut ss, mut so) = (0, 0, Duration::ZERO);
        for p in &ps {
            if astar(p, &baseline, &cfg).solution().is_some() {
                sb += 1;
            }
            if astar(p, &baseline_or_stevens, &cfg).solution().is_some() {
                ss += 1;
            }
            // The exact oracle is exponential; it is meant for <= 6x6.
            if p.width() <= 6 {
                let t = Instant::now();
                assert!(Oracle::new(p).completable(&Path::new(p)));
                so += t.elapsed();
            }
        }
        println!(
            "{size} Alg-4 x{}: solved within 2 s: baseline {sb}, baseline+pi° {ss}; oracle mean {:?}",
            ps.len(),
            so / ps.len() as u32
        );
    }
}
