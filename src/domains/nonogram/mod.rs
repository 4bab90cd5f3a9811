//! Nonogram lines: line model, exact line solver, decomposition oracle, boards, traces.
