//! A solve's steps as one self-contained HTML page (`explain --html`): the
//! puzzle, then per step its heading, notes, the rule's text the first
//! time it is used, and the board after the step (links so far in their
//! colours, cuts as red bars, the step's own links and cuts outlined).

use super::html::state_svg;
use crate::domains::flow::model::grid::Slot;
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::State;
use crate::html::{escape, head, END};

/// One step of the page.
#[derive(Clone, Debug)]
pub struct PageStep {
    /// Its heading.
    pub heading: String,
    /// Lines of text under it.
    pub notes: Vec<String>,
    /// The rule's text, shown the first time the rule is used.
    pub rule_text: Option<String>,
    /// The state after it.
    pub state: State,
    /// The slots it decided.
    pub marked: Vec<Slot>,
}

/// The page of `p`'s solve, titled `title` with `summary` under it.
pub fn steps_page(title: &str, summary: &str, p: &Puzzle, steps: &[PageStep]) -> String {
    let style = "body{font-family:sans-serif;margin:1.5em;color:#222} .s{margin:1em 0 2em} .s p{margin:0.2em 0} \
                 pre{background:#f3f3f3;padding:0.5em}";
    let mut out = head(None, title, style, summary);
    out += "<div class=\"s\"><h2>The puzzle</h2>\n";
    out += &state_svg(p, &State::start(p.grid()), true, &[]);
    out += "</div>\n";
    for step in steps {
        out += &format!("<div class=\"s\"><h2>{}</h2>\n", escape(&step.heading));
        for note in &step.notes {
            out += &format!("<p>{}</p>\n", escape(note));
        }
        if let Some(text) = &step.rule_text {
            out += &format!("<pre>{}</pre>\n", escape(text));
        }
        out += &state_svg(p, &step.state, true, &step.marked);
        out += "</div>\n";
    }
    out + END
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::flow::formats::read::parse_flow;
    use crate::domains::flow::model::state::Status;

    /// The puzzle first, then each step's board with its cuts and marked
    /// slots; text escaped.
    #[test]
    fn steps_are_drawn_with_their_links_and_cuts() {
        let p = parse_flow("AB\nAB\n", "t").unwrap().remove(0).1;
        let g = p.grid();
        let mut state = State::start(g);
        let (across, down) = (g.slot_between(0, 1).unwrap(), g.slot_between(0, 2).unwrap());
        state.set(across, Status::Cut);
        state.set(down, Status::Linked);
        let step = PageStep {
            heading: "Step 1 <a>".into(),
            notes: vec!["n".into()],
            rule_text: Some("def x & y".into()),
            state,
            marked: vec![across, down],
        };
        let page = steps_page("t", "s", &p, &[step]);
        assert!(page.contains("<h2>Step 1 &lt;a&gt;</h2>") && page.contains("<pre>def x &amp; y</pre>"));
        // one link drawn with its white outline, one long cut bar
        assert_eq!(page.matches("stroke=\"#fff\"").count(), 1);
        assert_eq!(page.matches("stroke=\"#e33\" stroke-width=\"0.2\"").count(), 1);
        assert_eq!(page.matches("<svg").count(), 2);
    }
}
