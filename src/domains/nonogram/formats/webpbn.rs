//! The webpbn XML puzzle format (webpbn.com's export, `pbn-0.3.dtd`), single
//! colour only: read into a [`Puzzle`], and written from one (so tools that
//! read webpbn XML, such as nonogrid, can be given our puzzles).
//!
//! ```xml
//! <puzzleset><puzzle type="grid" defaultcolor="black">
//!   <title>Duck</title>
//!   <color name="white" char=".">fff</color><color name="black" char="X">000</color>
//!   <clues type="columns"><line><count>1</count><count>1</count></line>...</clues>
//!   <clues type="rows"><line><count>3</count></line><line></line>...</clues>
//!   <solution type="goal"><image>|X.X|...</image></solution>
//! </puzzle></puzzleset>
//! ```
//! A `<line>` without `<count>` is an empty line. A count whose `color`
//! differs from the puzzle's `defaultcolor` makes the puzzle multicolour,
//! which is an error. Every error names the file, line and column.

use roxmltree::{Document, Node};
use thiserror::Error;

use super::non::{check_goal, Puzzle, MAX_SIDE};
use crate::domains::nonogram::line::model::Line;
use crate::located::Located;

/// Errors parsing webpbn XML.
#[derive(Debug, Error)]
pub enum WebpbnError {
    /// Not well-formed XML, or well-formed XML that is not a single-colour
    /// webpbn puzzle.
    #[error(transparent)]
    Parse(Located<String>),
}

/// Parses webpbn XML text; `file` names the source in errors.
pub fn parse_webpbn(text: &str, file: &str) -> Result<Puzzle, WebpbnError> {
    // webpbn exports write `&copy;`, declared only in the external DTD; the
    // numeric reference has the same length, so positions stay right.
    let text = text.replace("&copy;", "&#169;");
    refuse_entities(&text, file)?;
    let options = roxmltree::ParsingOptions { allow_dtd: true, ..Default::default() };
    let doc = Document::parse_with_options(&text, options).map_err(|e| {
        let pos = e.pos();
        WebpbnError::Parse(Located::new(file, pos.row as usize, pos.col as usize, format!("malformed XML: {e}")))
    })?;
    Reader { doc: &doc, file }.puzzle()
}

/// Refuses entity declarations: a webpbn puzzle needs none, and a few
/// kilobytes of them can expand to gigabytes (each reference to a long
/// entity copies it). XML spells the declaration exactly `<!ENTITY`, so
/// finding none means the parser expands no declared entity.
fn refuse_entities(text: &str, file: &str) -> Result<(), WebpbnError> {
    let Some(at) = text.find("<!ENTITY") else { return Ok(()) };
    let before = &text[..at];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let (line, column) = (before.matches('\n').count() + 1, before[line_start..].chars().count() + 1);
    let message = "entity declarations are not read (a webpbn puzzle needs none, and entities can expand a small file \
                   into gigabytes); expected the puzzle without <!ENTITY";
    Err(WebpbnError::Parse(Located::new(file, line, column, message.to_string())))
}

/// The child elements of `node` named `name`.
fn children<'n, 'i>(node: Node<'n, 'i>, name: &'n str) -> impl Iterator<Item = Node<'n, 'i>> + 'n {
    node.children().filter(move |c| c.has_tag_name(name))
}

struct Reader<'a, 'input> {
    doc: &'a Document<'input>,
    file: &'a str,
}

impl<'a, 'input> Reader<'a, 'input> {
    fn err(&self, node: Node, message: String) -> WebpbnError {
        let pos = self.doc.text_pos_at(node.range().start);
        WebpbnError::Parse(Located::new(self.file, pos.row as usize, pos.col as usize, message))
    }

    fn puzzle(&self) -> Result<Puzzle, WebpbnError> {
        let root = self.doc.root_element();
        let puzzles: Vec<Node> = if root.has_tag_name("puzzle") {
            vec![root]
        } else if root.has_tag_name("puzzleset") {
            children(root, "puzzle").collect()
        } else {
            return Err(self.err(root, format!("expected <puzzleset> or <puzzle>, found <{}>", root.tag_name().name())));
        };
        let p = match puzzles.as_slice() {
            [p] => *p,
            [] => return Err(self.err(root, "expected a <puzzle> element, found none".into())),
            [_, second, ..] => return Err(self.err(*second, format!("expected one <puzzle>, found {}", puzzles.len()))),
        };
        if let Some(t) = p.attribute("type").filter(|&t| t != "grid") {
            return Err(self.err(p, format!("expected a grid puzzle, found type=\"{t}\"")));
        }
        let fill = p.attribute("defaultcolor").unwrap_or("black");
        let background = p.attribute("backgroundcolor").unwrap_or("white");
        let columns = self.clues(p, "columns", fill)?;
        let rows = self.clues(p, "rows", fill)?;
        let (width, height) = (columns.len(), rows.len());
        let title = children(p, "title").next().and_then(|t| t.text()).map(|t| t.trim().to_string());
        let mut puzzle = Puzzle { title, width, height, rows, columns, goal: None };
        if let Some(image) = children(p, "solution")
            .filter(|s| s.attribute("type").is_none_or(|t| t == "goal"))
            .find_map(|s| children(s, "image").next())
        {
            let goal = self.image(p, image, fill, background, width * height)?;
            check_goal(&puzzle, &goal).map_err(|kind| self.err(image, kind.to_string()))?;
            puzzle.goal = Some(goal);
        }
        Ok(puzzle)
    }

    /// The `<clues type="...">` of a puzzle: one hint list per `<line>`.
    fn clues(&self, p: Node, kind: &str, fill: &str) -> Result<Vec<Vec<u32>>, WebpbnError> {
        let mut blocks = children(p, "clues").filter(|c| c.attribute("type") == Some(kind));
        let block =
            blocks.next().ok_or_else(|| self.err(p, format!("expected <clues type=\"{kind}\">, found none")))?;
        if let Some(extra) = blocks.next() {
            return Err(self.err(extra, format!("<clues type=\"{kind}\"> given twice")));
        }
        let lines: Vec<Node> = children(block, "line").collect();
        if lines.is_empty() || lines.len() > MAX_SIDE {
            return Err(self.err(block, format!("expected 1 to {MAX_SIDE} <line> elements, found {}", lines.len())));
        }
        let other = if kind == "rows" { "columns" } else { "rows" };
        let len = children(p, "clues")
            .find(|c| c.attribute("type") == Some(other))
            .map_or(0, |c| children(c, "line").count());
        let mut out = Vec::with_capacity(lines.len());
        for line in lines {
            let mut hints = vec![];
            for count in children(line, "count") {
                if let Some(color) = count.attribute("color").filter(|&c| c != fill) {
                    return Err(self.err(
                        count,
                        format!(
                            "multicolour puzzles are not supported: a count of colour `{color}` (only `{fill}` is)"
                        ),
                    ));
                }
                let text = count.text().unwrap_or("").trim();
                let h = text
                    .parse::<u32>()
                    .ok()
                    .filter(|&h| h > 0)
                    .ok_or_else(|| self.err(count, format!("expected a positive integer count, found {text:?}")))?;
                hints.push(h);
            }
            if len > 0 && Line::min_len(&hints) > len as u64 {
                return Err(
                    self.err(line, format!("this clue needs {} cells but the line has {len}", Line::min_len(&hints)))
                );
            }
            out.push(hints);
        }
        Ok(out)
    }

    /// The cells of a `<solution><image>`: rows between `|` bars, the fill
    /// colour's character filled, the background's empty.
    fn image(
        &self,
        p: Node,
        image: Node,
        fill: &str,
        background: &str,
        cells: usize,
    ) -> Result<Vec<bool>, WebpbnError> {
        let char_of = |name: &str, default: char| {
            children(p, "color")
                .find(|c| c.attribute("name") == Some(name))
                .and_then(|c| c.attribute("char"))
                .and_then(|s| s.chars().next())
                .unwrap_or(default)
        };
        let (on, off) = (char_of(fill, 'X'), char_of(background, '.'));
        let mut out = Vec::with_capacity(cells);
        for c in image.text().unwrap_or("").chars().filter(|c| !c.is_whitespace() && *c != '|') {
            if c == on {
                out.push(true);
            } else if c == off {
                out.push(false);
            } else {
                return Err(self.err(image, format!("expected `{on}` or `{off}` in the solution image, found {c:?}")));
            }
        }
        if out.len() != cells {
            return Err(self
                .err(image, format!("the solution image has {} cells, expected width x height = {cells}", out.len())));
        }
        Ok(out)
    }
}

/// Writes a puzzle as webpbn XML (single colour; the goal as the solution
/// image if known).
pub fn write_webpbn(p: &Puzzle) -> String {
    let escape = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let mut s = String::from("<?xml version=\"1.0\"?>\n<puzzleset>\n<puzzle type=\"grid\" defaultcolor=\"black\">\n");
    if let Some(t) = &p.title {
        s += &format!("<title>{}</title>\n", escape(t));
    }
    s += "<color name=\"white\" char=\".\">fff</color>\n<color name=\"black\" char=\"X\">000</color>\n";
    for (kind, clues) in [("columns", &p.columns), ("rows", &p.rows)] {
        s += &format!("<clues type=\"{kind}\">\n");
        for hints in clues {
            s += "<line>";
            for h in hints {
                s += &format!("<count>{h}</count>");
            }
            s += "</line>\n";
        }
        s += "</clues>\n";
    }
    if let Some(goal) = &p.goal {
        s += "<solution type=\"goal\">\n<image>\n";
        for row in goal.chunks(p.width) {
            let cells: String = row.iter().map(|&v| if v { 'X' } else { '.' }).collect();
            s += &format!("|{cells}|\n");
        }
        s += "</image>\n</solution>\n";
    }
    s + "</puzzle>\n</puzzleset>\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEMO: &str = r#"<?xml version="1.0"?>
<!DOCTYPE pbn SYSTEM "https://webpbn.com/pbn-0.3.dtd">
<puzzleset>
<puzzle type="grid" defaultcolor="black">
<title>Duck</title>
<copyright>&copy; someone</copyright>
<color name="white" char=".">fff</color>
<color name="black" char="X">000</color>
<clues type="columns"><line><count>1</count><count>1</count></line><line><count>1</count></line><line><count>1</count><count>1</count></line></clues>
<clues type="rows">
<line><count>1</count><count>1</count></line>
<line></line>
<line><count>3</count></line>
</clues>
<solution type="goal"><image>
|X.X|
|...|
|XXX|
</image></solution>
</puzzle>
</puzzleset>
"#;

    fn err(text: &str) -> String {
        parse_webpbn(text, "p.xml").unwrap_err().to_string()
    }

    #[test]
    fn reads_and_round_trips() {
        let p = parse_webpbn(DEMO, "demo.xml").unwrap();
        assert_eq!(p.title.as_deref(), Some("Duck"));
        assert_eq!(p.rows, vec![vec![1, 1], vec![], vec![3]]);
        assert_eq!(p.columns, vec![vec![1, 1], vec![1], vec![1, 1]]);
        assert_eq!(p.goal.as_deref(), Some(&[true, false, true, false, false, false, true, true, true][..]));
        assert_eq!(parse_webpbn(&write_webpbn(&p), "again.xml").unwrap(), p);
    }

    #[test]
    fn errors_name_the_position() {
        let unclosed = err("<puzzleset><puzzle>\n<clues type=\"rows\">\n</puzzle>");
        assert!(unclosed.starts_with("p.xml:3:1: malformed XML"), "{unclosed}");
        let multi = DEMO.replace("<line><count>3</count></line>", "<line><count color=\"red\">3</count></line>");
        assert_eq!(
            err(&multi),
            "p.xml:13:7: multicolour puzzles are not supported: a count of colour `red` (only `black` is)"
        );
        let bad = DEMO.replace("<count>3</count>", "<count>x</count>");
        assert_eq!(err(&bad), "p.xml:13:7: expected a positive integer count, found \"x\"");
        let wide = DEMO.replace("<count>3</count>", "<count>4</count>");
        assert!(err(&wide).contains("p.xml:13:1: this clue needs 4 cells but the line has 3"), "{}", err(&wide));
        let goal = DEMO.replace("|XXX|", "|XX.|");
        assert!(err(&goal).contains("goal row 2 has runs [2] but its clue is [3]"), "{}", err(&goal));
        assert!(err("<html/>").contains("expected <puzzleset> or <puzzle>"));
        assert!(err("<puzzleset><puzzle><clues type=\"rows\"><line/></clues></puzzle></puzzleset>")
            .contains("expected <clues type=\"columns\">"));
    }
}
