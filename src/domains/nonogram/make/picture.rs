//! Pictures for generation (docs/formats.md, "Pictures"): the intended solution
//! of a puzzle as black and white cells, read from a `.non` with a `goal`
//! (its clues, if any, must match it), a plain PBM (`P1`, `1` = black) or a
//! PNG whose pixels are all black or white (black = filled). The format is
//! told by the content: the PNG signature, else a first token `P1`, else
//! `.non`. Every problem is located: `file:line:column` in text, and
//! `file:row:column` (from 1) of the first offending pixel in a PNG.

use std::path::Path;

use thiserror::Error;

use crate::domains::nonogram::formats::non::{clues_of, parse_non_picture, NonError, Puzzle};
use crate::domains::nonogram::line::bitline::MAX_LINE;
use crate::domains::nonogram::play::analysis::MAX_CELLS;
use crate::located::Located;

/// A black-and-white picture: the solution a puzzle is made from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// The `.non` title, if the picture came from one.
    pub title: Option<String>,
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// The cells row by row, `true` = black = filled.
    pub cells: Vec<bool>,
}

impl Picture {
    /// The puzzle whose clues are this picture's runs, with the picture as
    /// its goal.
    pub fn puzzle(&self, title: Option<String>) -> Puzzle {
        let (rows, columns) = clues_of(self.width, self.height, &self.cells);
        Puzzle { title, width: self.width, height: self.height, rows, columns, goal: Some(self.cells.clone()) }
    }
}

/// What is wrong with a picture, at the position its error gives.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PictureErrorKind {
    /// A `.non` without a goal.
    #[error("expected `goal` (the picture, row by row) before the end of the file")]
    NoGoal,
    /// A PBM that is not plain (`P4` is binary).
    #[error("expected a plain PBM image starting with `P1`, found {0:?}")]
    NotPlainPbm(String),
    /// A bad width or height.
    #[error("expected the picture's {key} (a positive integer), found {found:?}")]
    BadSize {
        /// `width` or `height`.
        key: &'static str,
        /// What was there.
        found: String,
    },
    /// A picture larger than the puzzles the tool makes.
    #[error("the picture is {width}x{height}; puzzles are made with sides of at most {MAX_LINE} and at most {MAX_CELLS} cells")]
    TooLarge {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// A PBM pixel that is not `0` or `1`.
    #[error("expected a pixel `0` (white) or `1` (black), found {0:?}")]
    BadPixel(char),
    /// Fewer pixels than the header says.
    #[error("expected {expected} pixels (width x height), found {found}")]
    TooFewPixels {
        /// width * height.
        expected: usize,
        /// Pixels read.
        found: usize,
    },
    /// A pixel past width x height.
    #[error("a pixel past the {0} of width x height")]
    TooManyPixels(usize),
    /// Bytes that are neither a PNG nor UTF-8 text.
    #[error("expected a PNG image or a plain PBM or `.non` text; byte {0} is not UTF-8")]
    NotText(usize),
    /// A PNG the decoder refuses.
    #[error("expected a PNG image: {0}")]
    Unreadable(String),
    /// A PNG palette index past the palette's colours.
    #[error("pixel at row {row}, column {column} is palette index {index}; the palette has {colours} colours (0 to {})", colours.saturating_sub(1))]
    PaletteIndex {
        /// 1-based row.
        row: usize,
        /// 1-based column.
        column: usize,
        /// The index.
        index: usize,
        /// Colours in the palette.
        colours: usize,
    },
    /// A PNG pixel that is neither black nor white.
    #[error("pixel at row {row}, column {column} is #{colour}; expected black (#000000) or white (#ffffff), opaque")]
    NotBlackOrWhite {
        /// 1-based row.
        row: usize,
        /// 1-based column.
        column: usize,
        /// The pixel as `rrggbbaa` (16-bit: `rrrrggggbbbbaaaa`).
        colour: String,
    },
}

/// Errors reading a picture.
#[derive(Debug, Error)]
pub enum PictureError {
    /// The file could not be read.
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    /// A malformed `.non`.
    #[error(transparent)]
    Non(#[from] NonError),
    /// A problem at a position of the picture.
    #[error(transparent)]
    Located(#[from] Located<PictureErrorKind>),
}

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// Reads a picture file (format told by content, see the module doc).
pub fn read_picture(path: &Path) -> Result<Picture, PictureError> {
    let file = path.display().to_string();
    let bytes = crate::files::read_bytes(path)?;
    if bytes.starts_with(PNG_SIGNATURE) {
        return Ok(decode_png(&bytes, &file)?);
    }
    let text = crate::files::read_text(path)?;
    picture_of_text(&text, &file)
}

/// A picture from a file's bytes (PNG, plain PBM or `.non`, told by
/// content); `file` names it in errors.
pub fn picture_of_bytes(bytes: &[u8], file: &str) -> Result<Picture, PictureError> {
    if bytes.starts_with(PNG_SIGNATURE) {
        return Ok(decode_png(bytes, file)?);
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => picture_of_text(text, file),
        Err(e) => Err(Located::new(file, 1, 1, PictureErrorKind::NotText(e.valid_up_to())).into()),
    }
}

/// A plain PBM or `.non` picture from its text.
fn picture_of_text(text: &str, file: &str) -> Result<Picture, PictureError> {
    let first = text.split_whitespace().next().unwrap_or("");
    if first.starts_with('P') && first.len() == 2 && first.as_bytes()[1].is_ascii_digit() {
        return parse_pbm(text, file);
    }
    picture_of_non(text, file)
}

/// A `.non` picture: its goal (clue blocks optional; if present, checked
/// against the goal by the reader).
fn picture_of_non(text: &str, file: &str) -> Result<Picture, PictureError> {
    let puzzle = parse_non_picture(text, file)?;
    let end = text.lines().count() + 1;
    let cells = puzzle.goal.ok_or_else(|| Located::new(file, end, 1, PictureErrorKind::NoGoal))?;
    let size_line = text.lines().position(|l| l.trim_start().starts_with("width")).map_or(1, |i| i + 1);
    check_size(puzzle.width, puzzle.height, file, size_line, 1)?;
    Ok(Picture { title: puzzle.title, width: puzzle.width, height: puzzle.height, cells })
}

/// Refuses a picture larger than the puzzles the tool makes.
fn check_size(
    width: usize,
    height: usize,
    file: &str,
    line: usize,
    column: usize,
) -> Result<(), Located<PictureErrorKind>> {
    if width.max(height) > MAX_LINE || width * height > MAX_CELLS {
        return Err(Located::new(file, line, column, PictureErrorKind::TooLarge { width, height }));
    }
    Ok(())
}

/// The tokens of a plain PBM: each whitespace-separated word outside `#`
/// comments, with its 1-based line and column.
fn pbm_tokens(text: &str) -> Vec<(usize, usize, &str)> {
    let mut out = vec![];
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        for (column, (i, c)) in (1..).zip(line.char_indices()) {
            if !c.is_whitespace() && (i == 0 || line[..i].ends_with(char::is_whitespace)) {
                let word = line[i..].split(char::is_whitespace).next().unwrap_or("");
                out.push((n + 1, column, word));
            }
        }
    }
    out
}

/// A plain PBM (`P1`): width, height, then width x height pixels `0`/`1`
/// (white/black), separated by whitespace or not.
fn parse_pbm(text: &str, file: &str) -> Result<Picture, PictureError> {
    let tokens = pbm_tokens(text);
    let at = |line, column, kind| PictureError::Located(Located::new(file, line, column, kind));
    let end = (text.lines().count() + 1, 1);
    let Some(&(line, column, magic)) = tokens.first() else {
        return Err(at(end.0, end.1, PictureErrorKind::NotPlainPbm(String::new())));
    };
    if magic != "P1" {
        return Err(at(line, column, PictureErrorKind::NotPlainPbm(magic.to_string())));
    }
    let mut size = [0usize; 2];
    for (k, key) in ["width", "height"].into_iter().enumerate() {
        let (line, column, word) = tokens.get(k + 1).copied().unwrap_or((end.0, end.1, ""));
        size[k] = word
            .parse()
            .ok()
            .filter(|&v| v > 0)
            .ok_or_else(|| at(line, column, PictureErrorKind::BadSize { key, found: word.to_string() }))?;
    }
    let [width, height] = size;
    let (line, column, _) = tokens[1];
    check_size(width, height, file, line, column)?;
    let expected = width * height;
    let mut cells = Vec::with_capacity(expected);
    for &(line, column, word) in &tokens[3.min(tokens.len())..] {
        for (i, c) in word.chars().enumerate() {
            let value = match c {
                '0' => false,
                '1' => true,
                other => return Err(at(line, column + i, PictureErrorKind::BadPixel(other))),
            };
            if cells.len() == expected {
                return Err(at(line, column + i, PictureErrorKind::TooManyPixels(expected)));
            }
            cells.push(value);
        }
    }
    if cells.len() < expected {
        return Err(at(end.0, end.1, PictureErrorKind::TooFewPixels { expected, found: cells.len() }));
    }
    Ok(Picture { title: None, width, height, cells })
}

/// A PNG of black and white pixels (any colour type and bit depth; a
/// pixel is black if its colour is #000000, white if #ffffff, and opaque).
/// Samples are read as stored: a 16-bit sample is black at 0x0000 and
/// white at 0xffff only, a palette index must name a colour of the palette
/// (the transparency chunk, if any, gives alpha).
fn decode_png(bytes: &[u8], file: &str) -> Result<Picture, Located<PictureErrorKind>> {
    let unreadable = |e: png::DecodingError| Located::new(file, 1, 1, PictureErrorKind::Unreadable(e.to_string()));
    let mut decoder = png::Decoder::new_with_limits(std::io::Cursor::new(bytes), png::Limits { bytes: 64 << 20 });
    decoder.set_transformations(png::Transformations::IDENTITY);
    let mut reader = decoder.read_info().map_err(unreadable)?;
    let info = reader.info();
    let (width, height) = (info.width as usize, info.height as usize);
    check_size(width, height, file, 1, 1)?;
    let format = PngFormat {
        colour: info.color_type,
        depth: info.bit_depth as u32,
        palette: info.palette.as_deref().unwrap_or_default().to_vec(),
        trns: info.trns.as_deref().map(<[u8]>::to_vec),
    };
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| Located::new(file, 1, 1, PictureErrorKind::TooLarge { width, height }))?;
    let mut buffer = vec![0; size];
    let frame = reader.next_frame(&mut buffer).map_err(unreadable)?;
    let mut cells = Vec::with_capacity(width * height);
    for (r, line) in buffer[..frame.buffer_size()].chunks_exact(frame.line_size).enumerate() {
        for column in 0..width {
            let (row, column) = (r + 1, column + 1);
            let bad = |kind| Located::new(file, row, column, kind);
            cells.push(match format.pixel(line, column - 1) {
                Pixel::Black => true,
                Pixel::White => false,
                Pixel::Other(colour) => return Err(bad(PictureErrorKind::NotBlackOrWhite { row, column, colour })),
                Pixel::NoColour(index) => {
                    let colours = format.palette.len() / 3;
                    return Err(bad(PictureErrorKind::PaletteIndex { row, column, index, colours }));
                }
            });
        }
    }
    Ok(Picture { title: None, width, height, cells })
}

/// A PNG's pixel format, as stored.
struct PngFormat {
    colour: png::ColorType,
    /// Bits per sample: 1, 2, 4, 8 or 16.
    depth: u32,
    /// RGB triples of an indexed image.
    palette: Vec<u8>,
    /// The transparency chunk: alpha per palette entry, or the one
    /// transparent grey or RGB colour (16-bit samples, big-endian).
    trns: Option<Vec<u8>>,
}

/// A pixel as black and white pictures see it.
enum Pixel {
    Black,
    White,
    /// Another colour, `#rrggbbaa` (`#rrrrggggbbbbaaaa` at 16 bits).
    Other(String),
    /// A palette index past the palette.
    NoColour(usize),
}

impl PngFormat {
    /// Sample `k` of a scan line.
    fn sample(&self, line: &[u8], k: usize) -> u32 {
        match self.depth {
            16 => u32::from(u16::from_be_bytes([line[2 * k], line[2 * k + 1]])),
            8 => u32::from(line[k]),
            d => {
                let bit = k * d as usize;
                u32::from(line[bit / 8]) >> (8 - d as usize - bit % 8) & ((1 << d) - 1)
            }
        }
    }

    /// The pixel at `column` of a scan line.
    fn pixel(&self, line: &[u8], column: usize) -> Pixel {
        use png::ColorType::*;
        let n = self.colour.samples();
        let s: Vec<u32> = (0..n).map(|i| self.sample(line, column * n + i)).collect();
        let max = (1u32 << self.depth) - 1;
        // the transparent colour of a grey or RGB image, as samples
        let key = |samples: &[u32]| {
            self.trns.as_ref().is_some_and(|t| {
                t.len() == 2 * samples.len()
                    && samples
                        .iter()
                        .enumerate()
                        .all(|(i, &v)| u32::from(u16::from_be_bytes([t[2 * i], t[2 * i + 1]])) == v)
            })
        };
        let (rgba, max) = match self.colour {
            Grayscale => ([s[0], s[0], s[0], if key(&s) { 0 } else { max }], max),
            Rgb => ([s[0], s[1], s[2], if key(&s) { 0 } else { max }], max),
            GrayscaleAlpha => ([s[0], s[0], s[0], s[1]], max),
            Rgba => ([s[0], s[1], s[2], s[3]], max),
            Indexed => {
                let i = s[0] as usize;
                let Some(rgb) = self.palette.get(3 * i..3 * i + 3) else {
                    return Pixel::NoColour(i);
                };
                let alpha = self.trns.as_ref().and_then(|t| t.get(i)).map_or(255, |&a| u32::from(a));
                ([u32::from(rgb[0]), u32::from(rgb[1]), u32::from(rgb[2]), alpha], 255)
            }
        };
        match rgba {
            [0, 0, 0, a] if a == max => Pixel::Black,
            [r, g, b, a] if r == max && g == max && b == max && a == max => Pixel::White,
            samples if max == 0xffff => Pixel::Other(samples.iter().map(|v| format!("{v:04x}")).collect::<String>()),
            // below 8 bits, a grey level scaled to 8 bits as viewers show it
            samples => Pixel::Other(samples.iter().map(|v| format!("{:02x}", v * 255 / max)).collect::<String>()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(name: &str, bytes: &[u8]) -> Result<Picture, String> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        read_picture(&path).map_err(|e| e.to_string().replace(&dir.path().display().to_string(), "DIR"))
    }

    /// A PNG of `width` x `height` 8-bit RGB pixels.
    fn png(width: u32, height: u32, rgb: &[u8]) -> Vec<u8> {
        encode(width, height, png::ColorType::Rgb, png::BitDepth::Eight, None, rgb)
    }

    /// A PNG of `width` x `height` pixels of `colour` and `depth` (with
    /// `palette` if given), its scan lines `data` as stored.
    fn encode(
        width: u32,
        height: u32,
        colour: png::ColorType,
        depth: png::BitDepth,
        palette: Option<&[u8]>,
        data: &[u8],
    ) -> Vec<u8> {
        let mut out = vec![];
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(colour);
        encoder.set_depth(depth);
        if let Some(p) = palette {
            encoder.set_palette(p.to_vec());
        }
        encoder.write_header().unwrap().write_image_data(data).unwrap();
        out
    }

    #[test]
    fn palette_and_16_bit_pngs_are_read_as_stored() {
        use png::{BitDepth, ColorType};
        let cells = vec![true, false, false, true];
        // palette: 0 white, 1 black; 8-bit and 1-bit indices
        let palette: &[u8] = &[255, 255, 255, 0, 0, 0];
        let eight = encode(2, 2, ColorType::Indexed, BitDepth::Eight, Some(palette), &[1, 0, 0, 1]);
        assert_eq!(read("p.png", &eight).unwrap().cells, cells);
        let one = encode(2, 2, ColorType::Indexed, BitDepth::One, Some(palette), &[0b1000_0000, 0b0100_0000]);
        assert_eq!(read("p.png", &one).unwrap().cells, cells);
        // an index past the palette is refused where it is, not read black
        let past = encode(2, 2, ColorType::Indexed, BitDepth::Eight, Some(palette), &[1, 0, 0, 7]);
        assert_eq!(
            read("p.png", &past).unwrap_err(),
            "DIR/p.png:2:2: pixel at row 2, column 2 is palette index 7; the palette has 2 colours (0 to 1)"
        );
        // 16-bit greys: black and white are 0x0000 and 0xffff only
        let grey16 = |samples: [u16; 4]| {
            let data: Vec<u8> = samples.iter().flat_map(|v| v.to_be_bytes()).collect();
            encode(2, 2, ColorType::Grayscale, BitDepth::Sixteen, None, &data)
        };
        assert_eq!(read("p.png", &grey16([0, 0xffff, 0xffff, 0])).unwrap().cells, cells);
        assert_eq!(
            read("p.png", &grey16([0, 0x00ff, 0xffff, 0])).unwrap_err(),
            "DIR/p.png:1:2: pixel at row 1, column 2 is #00ff00ff00ffffff; expected black (#000000) or white (#ffffff), opaque"
        );
        assert!(read("p.png", &grey16([0xff00, 0, 0xffff, 0]))
            .unwrap_err()
            .starts_with("DIR/p.png:1:1: pixel at row 1, column 1 is #ff00ff00ff00ffff"));
        // 2-bit grey: 3 is white, 0 black, 1 a grey
        let two = encode(2, 2, ColorType::Grayscale, BitDepth::Two, None, &[0b0011_0000, 0b1100_0000]);
        assert_eq!(read("p.png", &two).unwrap().cells, cells);
        let grey = encode(2, 1, ColorType::Grayscale, BitDepth::Two, None, &[0b0001_0000]);
        assert_eq!(
            read("p.png", &grey).unwrap_err(),
            "DIR/p.png:1:2: pixel at row 1, column 2 is #555555ff; expected black (#000000) or white (#ffffff), opaque"
        );
    }

    #[test]
    fn the_three_formats_give_the_same_picture() {
        let cells = vec![true, false, true, false, true, false];
        let non = read("p.non", b"title \"T\"\nwidth 3\nheight 2\ngoal \"101010\"\n").unwrap();
        assert_eq!((non.width, non.height, &non.cells, non.title.as_deref()), (3, 2, &cells, Some("T")));
        let pbm = read("p.pbm", b"P1\n# a comment\n3 2\n1 0 1\n010\n").unwrap();
        assert_eq!((pbm.width, pbm.height, &pbm.cells), (3, 2, &cells));
        let (b, w) = ([0u8, 0, 0], [255u8, 255, 255]);
        let rgb: Vec<u8> = [b, w, b, w, b, w].concat();
        let image = read("p.png", &png(3, 2, &rgb)).unwrap();
        assert_eq!((image.width, image.height, &image.cells), (3, 2, &cells));
        let puzzle = image.puzzle(None);
        assert_eq!((puzzle.rows, puzzle.columns), (vec![vec![1, 1], vec![1]], vec![vec![1], vec![1], vec![1]]));
    }

    #[test]
    fn errors_are_located() {
        assert_eq!(
            read("p.pbm", b"P1\n2 2\n1 0\n1 x\n").unwrap_err(),
            "DIR/p.pbm:4:3: expected a pixel `0` (white) or `1` (black), found 'x'"
        );
        assert_eq!(
            read("p.pbm", b"P1\n2 2\n1 0\n1\n").unwrap_err(),
            "DIR/p.pbm:5:1: expected 4 pixels (width x height), found 3"
        );
        assert_eq!(
            read("p.pbm", b"P1\n2 1\n1 0 1\n").unwrap_err(),
            "DIR/p.pbm:3:5: a pixel past the 2 of width x height"
        );
        assert_eq!(
            read("p.pbm", b"P1\n0 1\n").unwrap_err(),
            "DIR/p.pbm:2:1: expected the picture's width (a positive integer), found \"0\""
        );
        assert_eq!(
            read("p.pbm", b"P4\n1 1\n").unwrap_err(),
            "DIR/p.pbm:1:1: expected a plain PBM image starting with `P1`, found \"P4\""
        );
        assert_eq!(
            read("p.pbm", b"P1 200 1\n").unwrap_err(),
            "DIR/p.pbm:1:4: the picture is 200x1; puzzles are made with sides of at most 126 and at most 10000 cells"
        );
        assert_eq!(
            read("p.non", b"width 2\nheight 1\n").unwrap_err(),
            "DIR/p.non:3:1: expected `goal` before the end of the file"
        );
        assert_eq!(
            read("p.non", b"width 1\nheight 1\nrows\n1\ncolumns\n1\n").unwrap_err(),
            "DIR/p.non:7:1: expected `goal` (the picture, row by row) before the end of the file"
        );
        let grey = png(2, 1, &[0, 0, 0, 128, 128, 128]);
        assert_eq!(
            read("p.png", &grey).unwrap_err(),
            "DIR/p.png:1:2: pixel at row 1, column 2 is #808080ff; expected black (#000000) or white (#ffffff), opaque"
        );
        let cut = &png(2, 1, &[0; 6])[..30];
        assert!(read("p.png", cut).unwrap_err().starts_with("DIR/p.png:1:1: expected a PNG image: "));
    }
}
