//! Self-contained HTML pages, whatever they show: text escaping, the page
//! skeleton (head with the page's style, title, summary; end) and the SVG
//! pieces the domains' drawings are made of. No scripts, no external
//! resources. The domains' pages (`nonogram::play::html`,
//! `witness::play::page`) draw with these.

/// `s` as HTML text or attribute value: `&`, `<`, `>` and `"` escaped.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The start of a page: the head (UTF-8, the escaped `title`, `style` as
/// the style sheet; `lang` on `<html>` if given), then the body's heading
/// (the title) and the escaped `summary` as its first paragraph.
pub fn head(lang: Option<&str>, title: &str, style: &str, summary: &str) -> String {
    let lang = lang.map_or(String::new(), |l| format!(" lang=\"{}\"", escape(l)));
    format!(
        "<!DOCTYPE html>\n<html{lang}><head><meta charset=\"utf-8\"><title>{t}</title><style>{style}</style></head><body>\n<h1>{t}</h1>\n<p>{s}</p>\n",
        t = escape(title),
        s = escape(summary)
    )
}

/// The end of a page begun with [`head`].
pub const END: &str = "</body></html>\n";

/// An `<svg>` start tag of `width` by `height` pixels (rounded) showing
/// `view_box` (`"0 0 W H"` in drawing units), with `attrs` (each with its
/// leading space) added.
pub fn svg_open(width: f64, height: f64, view_box: &str, attrs: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"{view_box}\"{attrs}>"
    )
}

/// A round-capped line from `a` to `b` (coordinates to 0.1).
pub fn line(a: (f64, f64), b: (f64, f64), colour: &str, width: f64) -> String {
    format!(
        "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{colour}\" stroke-width=\"{width:.1}\" stroke-linecap=\"round\"/>",
        a.0, a.1, b.0, b.1
    )
}

/// A filled circle (coordinates to 0.1).
pub fn circle((cx, cy): (f64, f64), r: f64, fill: &str) -> String {
    format!("<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{r:.1}\" fill=\"{fill}\"/>")
}

/// A path's data for the square of side `side` with its top-left corner
/// at `(x, y)` (to 0.01), to append to other path data.
pub fn square(x: f64, y: f64, side: f64) -> String {
    format!("M{x:.2} {y:.2}h{side}v{side}h-{side}z")
}

/// A `<path>` of `d` with `attrs` (e.g. `fill="#222"`).
pub fn path(d: &str, attrs: &str) -> String {
    format!("<path d=\"{d}\" {attrs}/>")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Markup in titles, summaries and languages is escaped; the page is
    /// one document: head, heading, summary, and the end.
    #[test]
    fn the_skeleton_escapes_what_it_is_given() {
        assert_eq!(escape(r#"<a href="x">&</a>"#), "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;");
        let page = head(Some("en"), "a < b", "p{margin:0}", "\"x\" & y") + END;
        assert_eq!(
            page,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>a &lt; b</title><style>p{margin:0}</style></head><body>\n<h1>a &lt; b</h1>\n<p>&quot;x&quot; &amp; y</p>\n</body></html>\n"
        );
        assert!(head(None, "t", "", "").starts_with("<!DOCTYPE html>\n<html><head>"));
    }

    /// The SVG pieces round as documented.
    #[test]
    fn svg_pieces_round_their_coordinates() {
        assert_eq!(
            svg_open(100.4, 50.6, "0 0 5.02 2.53", " font-size=\"0.6\""),
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"51\" viewBox=\"0 0 5.02 2.53\" font-size=\"0.6\">"
        );
        assert_eq!(
            line((1.0, 2.04), (3.06, 4.0), "#fff", 2.0),
            "<line x1=\"1.0\" y1=\"2.0\" x2=\"3.1\" y2=\"4.0\" stroke=\"#fff\" stroke-width=\"2.0\" stroke-linecap=\"round\"/>"
        );
        assert_eq!(circle((1.26, 2.0), 0.5, "red"), "<circle cx=\"1.3\" cy=\"2.0\" r=\"0.5\" fill=\"red\"/>");
        assert_eq!(square(1.0, 2.5, 1.0) + &square(0.4, 0.4, 0.2), "M1.00 2.50h1v1h-1zM0.40 0.40h0.2v0.2h-0.2z");
        assert_eq!(path("M0 0h1", "fill=\"#222\""), "<path d=\"M0 0h1\" fill=\"#222\"/>");
    }
}
