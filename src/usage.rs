//! What this process has cost so far: CPU time (user and system, from
//! `getrusage`), peak and current resident memory (`VmHWM` and `VmRSS` of
//! `/proc/self/status`, the kernel's own high-water mark: it does not
//! depend on machine load). Commands print it so a user knows what a run
//! costs ([`Usage`]).

use std::time::Duration;

/// User + system CPU time of this process (`RUSAGE_SELF`) or of its waited
/// children (`RUSAGE_CHILDREN`).
pub fn cpu_time(who: libc::c_int) -> Duration {
    // SAFETY: getrusage only writes the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(who, &mut usage);
        usage
    };
    let tv = |t: libc::timeval| Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// Times the calling thread was preempted so far: its involuntary context
/// switches (`getrusage(RUSAGE_THREAD)`'s `ru_nivcsw`; 0 where missing).
pub fn thread_preemptions() -> u64 {
    // SAFETY: getrusage only writes the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_THREAD, &mut usage);
        usage
    };
    usage.ru_nivcsw.max(0) as u64
}

/// User + system CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`;
/// zero where the clock is missing).
pub fn thread_cpu_time() -> Duration {
    // SAFETY: clock_gettime only writes the struct it is given.
    let (ok, ts) = unsafe {
        let mut ts: libc::timespec = std::mem::zeroed();
        (libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) == 0, ts)
    };
    if ok {
        Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
    } else {
        Duration::ZERO
    }
}

/// A field of `/proc/self/status` given in kB, in bytes (`None` where the
/// file or the field does not exist).
fn status_bytes(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))?;
    let kb: u64 = line.trim().strip_suffix("kB")?.trim().parse().ok()?;
    Some(kb * 1024)
}

/// Peak resident memory of this process so far, in bytes: `VmHWM`, or
/// `getrusage`'s `ru_maxrss` where `/proc` is missing.
pub fn peak_memory() -> u64 {
    status_bytes("VmHWM").unwrap_or_else(|| {
        // SAFETY: getrusage only writes the struct it is given.
        let usage = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            libc::getrusage(libc::RUSAGE_SELF, &mut usage);
            usage
        };
        usage.ru_maxrss.max(0) as u64 * 1024
    })
}

/// Resident memory of this process now, in bytes (0 where unknown).
pub fn memory() -> u64 {
    status_bytes("VmRSS").unwrap_or(0)
}

/// `bytes` in GB (10^9), to one decimal, or MB below 1 GB.
pub fn show_bytes(bytes: u64) -> String {
    if bytes >= 1_000_000_000 {
        format!("{:.1} GB", bytes as f64 / 1e9)
    } else {
        format!("{:.0} MB", bytes as f64 / 1e6)
    }
}

/// What a process has cost since it started: wall time (from a given
/// start), CPU time and peak resident memory.
#[derive(Clone, Copy, Debug)]
pub struct Usage {
    /// Wall time since the start given.
    pub wall: Duration,
    /// User + system CPU time of the process.
    pub cpu: Duration,
    /// Peak resident memory, in bytes.
    pub peak: u64,
}

impl Usage {
    /// The cost so far of a process whose work started at `started`.
    pub fn since(started: std::time::Instant) -> Usage {
        Usage { wall: started.elapsed(), cpu: cpu_time(libc::RUSAGE_SELF), peak: peak_memory() }
    }
}

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:.1} s wall, {:.1} s CPU (user and system), peak memory {} (resident)",
            self.wall.as_secs_f64(),
            self.cpu.as_secs_f64(),
            show_bytes(self.peak)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_reads_the_kernel_figures() {
        let started = std::time::Instant::now();
        // touch 64 MB so the peak is at least that
        let block = vec![1u8; 64 << 20];
        assert_eq!(block.iter().map(|&b| b as u64).sum::<u64>(), 64 << 20);
        let now = memory();
        let usage = Usage::since(started);
        assert!(usage.peak >= 64 << 20, "peak {}", usage.peak);
        // other tests allocate and free beside this one, so the current
        // size is compared with the 64 MB held, not with the peak
        assert!(now >= 64 << 20, "resident {now}");
        assert!(usage.cpu > Duration::ZERO);
        assert_eq!(show_bytes(1_234_000_000), "1.2 GB");
        assert_eq!(show_bytes(56_700_000), "57 MB");
        assert!(usage.to_string().contains("peak memory"));
    }
}
