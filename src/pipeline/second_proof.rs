//! The second proof of the rules lost to Z3's resource limit at the
//! full-bound proof: the learning pipeline proves again, with a higher
//! limit, the few lost rules that would count — that raise the learned
//! set's objective or that the greedy top K would pick — so the search can
//! run on a low limit (queries that run out are most of its Z3 time)
//! without losing a rule that matters. Lost rules are unproven: scoring
//! them may find them wrong on a test, which rules them out.

use super::batch::{describe, Entry, Job};
use super::journal::{JournalError, ProofQuery};
use super::learner::{DomainError, Learner};
use super::rounds::BatchRun;
use crate::dsl::ast::Rule;
use crate::dsl::cost::cost;
use crate::dsl::dedup::normal_key;
use crate::dsl::print::print_rule;
use crate::select::{greedy, Objective, Selection};
use crate::synth::verify::{Verdict, Verifier};
use crate::synth::{Domain, Learned};
use rayon::prelude::*;

/// What [`second_proof`] did with the rules lost to Z3's resource limit.
#[derive(Clone, Debug, Default)]
pub struct SecondProof {
    /// Distinct lost rules (none equal to a rule found).
    pub lost: usize,
    /// Shown unsound by the objective's test data while they were scored.
    pub refuted: usize,
    /// Proven again.
    pub tried: usize,
    /// The second proof's resource limit (0: none was made).
    pub rlimit: u32,
    /// The rules the second proof found sound, in job order, described.
    pub proven: Vec<Rule>,
    /// Found unsound by the second proof.
    pub unsound: usize,
}

impl SecondProof {
    /// What the second proof did, in words.
    pub fn summary(&self) -> String {
        if self.rlimit == 0 {
            return format!("{} distinct rules lost to Z3's limit, none proven again", self.lost);
        }
        format!(
            "{} distinct rules lost to Z3's limit ({} of them wrong on a test); the {} that would add to the learned set or enter its top K \
             were proven again with rlimit {}: {} sound, {} unsound, {} out of the limit again (lost)",
            self.lost,
            self.refuted,
            self.tried,
            self.rlimit,
            self.proven.len(),
            self.unsound,
            self.tried - self.proven.len() - self.unsound
        )
    }
}

/// A lost rule's standing in [`second_proof`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Standing {
    /// Not proven again (yet).
    Open,
    /// Wrong on a test, or not proven sound by the second proof.
    Failed,
    /// Proven sound by the second proof.
    Proven,
}

/// The second proof of `batch`'s lost rules ([`SecondProof`]) at `bound` with
/// `rlimit`, each split at once (it ran out of the search's limit whole),
/// for those that raise `learner`'s objective over `learned` or
/// that its greedy `selection` of the learned and lost rules picks (again
/// without the ones that fail, until it picks no untried lost rule).
pub(crate) fn second_proof<L: Learner>(
    learner: &L,
    learned: &[Rule],
    batch: &BatchRun<<L::Domain as Domain>::State>,
    jobs: &[Job<<L::Domain as Domain>::State>],
    (bound, rlimit, selection): (u32, u32, Selection),
) -> Result<SecondProof, DomainError> {
    let domain = learner.domain();
    let mut seen: std::collections::HashSet<_> = batch.rules().iter().map(normal_key).collect();
    let lost: Vec<(usize, &Rule)> = batch.lost().into_iter().filter(|(_, r)| seen.insert(normal_key(r))).collect();
    let mut out = SecondProof { lost: lost.len(), rlimit, ..SecondProof::default() };
    if rlimit == 0 || lost.is_empty() {
        return Ok(out);
    }
    let mut standing = vec![Standing::Open; lost.len()];
    // Scores the learned rules with the lost ones not failed (`open`; the
    // rules, learned first): an error that shows an open lost rule wrong
    // on a test marks it failed, and the scoring runs again.
    type Score<'s, L> =
        dyn Fn(&[usize], &[Rule], <L as Learner>::Objective<'_>) -> Result<Vec<usize>, <L as Learner>::ScoreError> + 's;
    let scored = |standing: &mut Vec<Standing>, out: &mut SecondProof, score: &Score<'_, L>| loop {
        let open: Vec<usize> = (0..lost.len()).filter(|&j| standing[j] != Standing::Failed).collect();
        let pool: Vec<Rule> = learned.iter().cloned().chain(open.iter().map(|&j| lost[j].1.clone())).collect();
        let objective = learner.objective(&pool)?;
        let result = score(&open, &pool, objective);
        match result {
            Ok(picked) => return Ok::<_, DomainError>(picked),
            Err(error) => {
                let name = learner.refuted(&error);
                let j = (0..lost.len())
                    .find(|&j| standing[j] == Standing::Open && name.as_deref() == Some(lost[j].1.name.as_str()))
                    .ok_or_else(|| -> DomainError { error.into() })?;
                standing[j] = Standing::Failed;
                out.refuted += 1;
            }
        }
    };
    // the lost rules raising the objective of the learned ones
    let n = learned.len();
    let mut todo = scored(&mut standing, &mut out, &|open, _, mut objective| {
        for i in 0..n {
            objective.choose(i)?;
        }
        let base = objective.score();
        let scores: Vec<usize> =
            (0..open.len()).into_par_iter().map(|o| objective.score_with(n + o)).collect::<Result<_, _>>()?;
        Ok((0..open.len()).filter(|&o| scores[o] > base).map(|o| open[o]).collect())
    })?;
    loop {
        // each verdict is journaled as it is reached, and one the journal
        // already holds is not proven again
        let verdicts: Vec<Verdict<String>> = todo
            .par_iter()
            .map(|&j| {
                let query: ProofQuery = (print_rule(lost[j].1, domain.schema()), bound, rlimit);
                if let Some(verdict) = batch.proofs.get(&query) {
                    return Ok(verdict.clone());
                }
                let verdict = Verifier::deterministic(domain, bound, rlimit)
                    .split_after(0)
                    .check(lost[j].1)
                    .map(|ce| domain.show(&ce.state));
                batch.journal.lock().expect("journal").append_proof(&query, verdict.clone())?;
                Ok(verdict)
            })
            .collect::<Result<_, JournalError>>()?;
        for (&j, verdict) in todo.iter().zip(verdicts) {
            out.tried += 1;
            standing[j] = if verdict.is_sound() { Standing::Proven } else { Standing::Failed };
            if matches!(verdict, Verdict::Unsound(_)) {
                out.unsound += 1;
            }
        }
        // the greedy selection of the learned rules and the lost ones not failed
        let picked = scored(&mut standing, &mut out, &|open, pool, mut objective| {
            let picks = greedy(pool.len(), selection, |i| cost(&pool[i], domain.schema()), &mut objective)?;
            Ok(picks.iter().filter_map(|p| p.index.checked_sub(n).map(|o| open[o])).collect())
        })?;
        todo = picked.into_iter().filter(|&j| standing[j] == Standing::Open).collect();
        if todo.is_empty() {
            break;
        }
    }
    for &(at, rule) in lost.iter().zip(&standing).filter(|(_, s)| **s == Standing::Proven).map(|(l, _)| l) {
        let Entry::Done { index, outcome } = &batch.entries[at] else { continue };
        let text = jobs.iter().find(|job| job.index == *index).map_or("", |job| job.text.as_str());
        let mut proven = Learned { cost: cost(rule, domain.schema()), rule: rule.clone(), bound };
        describe(text, &mut proven, &outcome.stats);
        out.proven.push(proven.rule);
    }
    Ok(out)
}
