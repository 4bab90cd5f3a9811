//! `print`: a rule file pretty-printed with each rule's cost (Flow puzzle
//! files drawn: `flow`).

use super::CmdResult;
use std::path::PathBuf;
use std::process::ExitCode;
use stratsynth::dsl::cost::cost;
use stratsynth::dsl::print::print_rule;
use stratsynth::rule_files::read_rules;

/// Whether a description line is the `cost N` note `print` writes (read
/// back from its own output, it is replaced, not repeated).
fn is_cost_note(line: &str) -> bool {
    line.strip_prefix("cost ").is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Options of `print`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct PrintArgs {
    /// The `.rules` file, or a Flow puzzle file to draw.
    pub rules: PathBuf,
    /// Put each nonogram rule's plain-English sentence first in its comment
    /// (unless the comment already starts with it).
    #[arg(long)]
    pub english: bool,
    /// Flow puzzles: solve each and draw its paths (the first solution
    /// found, within 60 s).
    #[arg(long)]
    pub solve: bool,
    /// Flow puzzles, with `--solve`: count Flow Free's looser solutions too.
    #[arg(long, requires = "solve")]
    pub touching: bool,
    /// Flow puzzles: write the drawings as one HTML page here instead.
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
}

/// `print RULES`: each rule pretty-printed after a `# cost N` line;
/// printing its own output gives the same text.
pub fn print(args: &PrintArgs) -> CmdResult {
    if super::flow::is_flow_file(&args.rules) {
        if args.english {
            return Err(format!(
                "{}: --english describes nonogram rules; this is a Flow puzzle file",
                args.rules.display()
            ));
        }
        let drawing = super::flow::Drawing { solve: args.solve, touching: args.touching, html: args.html.as_deref() };
        return super::flow::print(&args.rules, drawing);
    }
    if args.solve || args.html.is_some() {
        return Err(format!(
            "{}: --solve and --html draw Flow puzzles; this is not a Flow puzzle file",
            args.rules.display()
        ));
    }
    let (path, english) = (args.rules.as_path(), args.english);
    let (schema, rules) = read_rules(path)?;
    if english && schema.domain() != "nonogram" {
        return Err(format!(
            "{}: --english describes nonogram rules; these are {} rules",
            path.display(),
            schema.domain()
        ));
    }
    let shown: Vec<String> = rules
        .iter()
        .map(|r| {
            let mut rule = r.clone();
            rule.description.retain(|line| !is_cost_note(line));
            if english {
                let sentence = stratsynth::domains::nonogram::rules::describe::sentence(&rule, &schema);
                // (a learned rule's comment already starts with its sentence)
                if !rule.description.join(" ").starts_with(&sentence) {
                    rule.description.splice(0..0, stratsynth::domains::nonogram::rules::describe::wrap(&sentence, 76));
                }
            }
            format!("# cost {}\n{}", cost(&rule, &schema), print_rule(&rule, &schema))
        })
        .collect();
    print!("{}", shown.join("\n"));
    Ok(ExitCode::SUCCESS)
}
