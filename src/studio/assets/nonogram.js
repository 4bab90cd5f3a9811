// The nonogram panel's picture: the board (row and column numbers, clue
// areas sized for the longest clue a line can have, so the board never
// moves while one paints), painting by pointer (a press sets a cell to the
// other colour, a right press to white, dragging paints the cells the
// pointer passes over) and by keyboard, undo and redo, resize, shift and
// flip; after each change the server's analysis (solutions, line- and
// rule-solvability, difficulty, the cells where two solutions differ),
// asked at once, the stale request cancelled. Hints, owners, repairs,
// random puzzles and files are nonogram-tools.js's.
"use strict";

// The largest side painted.
const NONO_MAX = 50;

const nono = { w: 10, h: 10, cells: new Array(100).fill(false), title: "", author: "",
  stroke: null, cursor: 0, history: new History(), live: null, analysis: null };

// What else must forget the old picture when it changes (the hint shown,
// the repairs listed): functions called after every change.
const onPictureChange = [];

// The runs of filled cells of a line, as a clue ([] for an empty line).
function runs(line) {
  const out = [];
  let n = 0;
  for (const v of line) {
    if (v) n++; else if (n) { out.push(n); n = 0; }
  }
  if (n) out.push(n);
  return out;
}

function rowOf(r) { return nono.cells.slice(r * nono.w, (r + 1) * nono.w); }
function colOf(c) { const out = []; for (let r = 0; r < nono.h; r++) out.push(nono.cells[r * nono.w + c]); return out; }
function goal() { return nono.cells.map(v => (v ? "1" : "0")).join(""); }
function request() { return { width: nono.w, height: nono.h, goal: goal() }; }
function cellId(r, c) { return "cell-" + r + "-" + c; }

// The characters of the widest clue a line of `n` cells can have (9 for
// 10 cells: "1 1 1 1 1").
function widestClue(n) {
  const best = [0, 1];
  for (let m = 2; m <= n; m++) {
    let b = String(m).length;
    for (let k = 1; k + 2 <= m; k++) b = Math.max(b, String(k).length + 1 + best[m - k - 1]);
    best.push(b);
  }
  return best[n];
}

// The pixel height of a clue number in a column clue (studio.css agrees).
const CLUE_LINE = 13;

// Draws the board: column numbers and clues on top, row numbers and clues
// on the left, each clue area as large as the longest clue of its lines.
function drawBoard() {
  const t = $("nono-board");
  t.innerHTML = "";
  const numbers = t.insertRow();
  const corner = numbers.insertCell();
  corner.className = "corner";
  corner.colSpan = 2;
  corner.rowSpan = 2;
  for (let c = 0; c < nono.w; c++) {
    const td = numbers.insertCell();
    td.className = "num";
    td.id = "colnum-" + c;
    td.textContent = c + 1;
  }
  const head = t.insertRow();
  for (let c = 0; c < nono.w; c++) {
    const td = head.insertCell();
    td.className = "colclue";
    td.id = "colclue-" + c;
    td.style.height = Math.ceil(nono.h / 2) * CLUE_LINE + "px";
  }
  const width = widestClue(nono.w) + "ch";
  for (let r = 0; r < nono.h; r++) {
    const tr = t.insertRow();
    const num = tr.insertCell();
    num.className = "num";
    num.id = "rownum-" + r;
    num.textContent = r + 1;
    const clue = tr.insertCell();
    clue.className = "clue";
    clue.id = "rowclue-" + r;
    clue.style.width = clue.style.minWidth = width;
    for (let c = 0; c < nono.w; c++) {
      const td = tr.insertCell();
      td.className = "cell";
      td.id = cellId(r, c);
      td.dataset.p = r * nono.w + c;
    }
  }
  nono.cursor = Math.min(nono.cursor, nono.w * nono.h - 1);
  refresh();
}

// A clue's numbers, each in a span (`rowhint-R-I`, `colhint-C-I`) so a
// hint can be marked; "0" for an empty line.
function clueHtml(kind, line, clue, between) {
  if (!clue.length) return "0";
  return clue.map((n, i) => `<span class="hint" id="${kind}hint-${line}-${i}">${n}</span>`).join(between);
}

// Shows the cells, the cursor and the clues.
function refresh() {
  for (let p = 0; p < nono.cells.length; p++) {
    const td = $(cellId(Math.floor(p / nono.w), p % nono.w));
    td.classList.toggle("on", nono.cells[p]);
    td.classList.toggle("cursor", p === nono.cursor);
  }
  for (let r = 0; r < nono.h; r++) $("rowclue-" + r).innerHTML = clueHtml("row", r, runs(rowOf(r)), " ");
  for (let c = 0; c < nono.w; c++) $("colclue-" + c).innerHTML = clueHtml("col", c, runs(colOf(c)), "<br>");
}

function clearMarks(...names) {
  for (const td of document.querySelectorAll("#nono-board td.cell")) td.classList.remove(...names);
}

// The picture as the undo history keeps it.
function snapshot() { return { w: nono.w, h: nono.h, cells: nono.cells.slice() }; }

// Before a change: the picture as it was, to undo to.
function record(before) {
  nono.history.record(before || snapshot());
  undoButtons();
}

function undoButtons() {
  $("nono-undo").disabled = !nono.history.past.length;
  $("nono-redo").disabled = !nono.history.future.length;
}

// After a change: what held for the old picture no longer does (figures,
// marks, hint, repairs); the new one is analysed at once.
function changed() {
  for (const forget of onPictureChange) forget();
  refresh();
  staleFigures();
  analyse();
}

// Shows picture `s` (a snapshot) as the board.
function show(s) {
  const redraw = s.w !== nono.w || s.h !== nono.h;
  nono.w = s.w; nono.h = s.h; nono.cells = s.cells;
  $("nono-width").value = s.w; $("nono-height").value = s.h;
  if (redraw) drawBoard();
  changed();
}

// A new picture (a change that can be undone).
function setPicture(w, h, cells) {
  record();
  show({ w, h, cells });
}

function undo() { const s = nono.history.undo(snapshot()); if (s) show(s); undoButtons(); }
function redo() { const s = nono.history.redo(snapshot()); if (s) show(s); undoButtons(); }
UNDO.nonogram = { undo, redo };
$("nono-undo").addEventListener("click", undo);
$("nono-redo").addEventListener("click", redo);

// Painting by pointer. A stroke starts on a press on a cell (the left
// button sets it to the other colour, the right one to white) and paints
// that colour on every cell the pointer passes over while it moves (the
// cells on the straight line from the last cell painted, so a fast drag
// skips none); only a real move paints (the pointer's position changed),
// never the board changing under a still pointer. The figures are asked
// at the press and, if the stroke painted more, again at its end (the
// request of the press cancelled as soon as the stroke paints on).
function cellAt(e) {
  const td = e.target.closest ? e.target.closest("td.cell") : null;
  return td ? Number(td.dataset.p) : null;
}

function cellUnder(x, y) {
  const el = document.elementFromPoint(x, y);
  const td = el && el.closest ? el.closest("#nono-board td.cell") : null;
  return td ? Number(td.dataset.p) : null;
}

// Paints the stroke's colour on the cells of the line from p to q.
function paintLine(p, q) {
  const { w } = nono, value = nono.stroke.value;
  let [r, c] = [Math.floor(p / w), p % w];
  const [r1, c1] = [Math.floor(q / w), q % w];
  const dr = Math.abs(r1 - r), dc = Math.abs(c1 - c), sr = r < r1 ? 1 : -1, sc = c < c1 ? 1 : -1;
  let err = dc - dr;
  for (;;) {
    nono.cells[r * w + c] = value;
    if (r === r1 && c === c1) break;
    const e2 = 2 * err;
    if (e2 > -dr) { err -= dr; c += sc; }
    if (e2 < dc) { err += dc; r += sr; }
  }
}

$("nono-board").addEventListener("pointerdown", e => {
  const p = cellAt(e);
  if (p === null || (e.button !== 0 && e.button !== 2)) return;
  e.preventDefault();
  $("nono-board").focus({ preventScroll: true });
  // the stroke's end comes to the board even if the pointer leaves the window
  $("nono-board").setPointerCapture(e.pointerId);
  nono.stroke = { value: e.button === 2 ? false : !nono.cells[p], last: p, x: e.clientX, y: e.clientY, more: false,
    before: snapshot() };
  nono.cursor = p;
  paintLine(p, p);
  if (nono.cells[p] !== nono.stroke.before.cells[p]) changed(); else refresh();
});
$("nono-board").addEventListener("contextmenu", e => { if (cellAt(e) !== null) e.preventDefault(); });
window.addEventListener("pointermove", e => {
  const s = nono.stroke;
  if (!s || (e.clientX === s.x && e.clientY === s.y)) return;
  s.x = e.clientX; s.y = e.clientY;
  const p = cellUnder(e.clientX, e.clientY);
  if (p === null || p === s.last) return;
  paintLine(s.last, p);
  s.last = nono.cursor = p;
  s.more = true;
  // the figures asked at the press are of a picture gone: cancelled, asked again at the stroke's end
  if (nono.live) nono.live.abort();
  for (const forget of onPictureChange) forget();
  refresh();
  staleFigures();
});
// The end of a stroke: one step to undo, if it changed a cell.
function endStroke() {
  const s = nono.stroke;
  nono.stroke = null;
  if (!s) return;
  if (s.before.cells.some((v, p) => v !== nono.cells[p])) record(s.before);
  if (s.more) changed();
}
window.addEventListener("pointerup", endStroke);
window.addEventListener("pointercancel", endStroke);
$("nono-board").addEventListener("lostpointercapture", endStroke);

// Painting by keyboard on the focused board: the arrows move the cursor,
// Space sets its cell to the other colour, Enter to black, x or Delete to
// white.
$("nono-board").tabIndex = 0;
$("nono-board").addEventListener("keydown", e => {
  const { w, h } = nono;
  let [r, c] = [Math.floor(nono.cursor / w), nono.cursor % w];
  const move = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
  if (move) {
    r = clamp(r + move[0], 0, h - 1); c = clamp(c + move[1], 0, w - 1);
    nono.cursor = r * w + c;
    refresh();
  } else if ([" ", "Enter", "x", "Delete"].includes(e.key)) {
    const p = nono.cursor, value = e.key === " " ? !nono.cells[p] : e.key === "Enter";
    if (nono.cells[p] !== value) {
      record();
      nono.cells[p] = value;
      changed();
    }
  } else {
    return;
  }
  e.preventDefault();
});

// A side from its box: a whole number from 1 to NONO_MAX, else null and
// the message says so.
function side(id) {
  const v = Number($(id).value);
  if (Number.isInteger(v) && v >= 1 && v <= NONO_MAX) return v;
  $("nono-message").textContent = `${id.slice(5)}: expected a whole number from 1 to ${NONO_MAX}, found "${$(id).value}"`;
  return null;
}

$("nono-new").addEventListener("click", () => {
  const w = side("nono-width"), h = side("nono-height");
  if (w && h) setPicture(w, h, new Array(w * h).fill(false));
});

// The picture moved by (dr, dc) within a w x h board (cells moved off it
// are lost, those uncovered white).
function moved(w, h, dr, dc) {
  const out = new Array(w * h).fill(false);
  for (let r = 0; r < nono.h; r++) {
    for (let c = 0; c < nono.w; c++) {
      const [r2, c2] = [r + dr, c + dc];
      if (r2 >= 0 && r2 < h && c2 >= 0 && c2 < w) out[r2 * w + c2] = nono.cells[r * nono.w + c];
    }
  }
  return out;
}

$("nono-resize").addEventListener("click", () => {
  const w = side("nono-width"), h = side("nono-height");
  if (w && h) setPicture(w, h, moved(w, h, 0, 0));
});
for (const [dir, dr, dc] of [["left", 0, -1], ["right", 0, 1], ["up", -1, 0], ["down", 1, 0]]) {
  $("nono-shift-" + dir).addEventListener("click", () => setPicture(nono.w, nono.h, moved(nono.w, nono.h, dr, dc)));
}
$("nono-flip-h").addEventListener("click", () =>
  setPicture(nono.w, nono.h, nono.cells.map((_, p) => nono.cells[p - (p % nono.w) + nono.w - 1 - (p % nono.w)])));
$("nono-flip-v").addEventListener("click", () =>
  setPicture(nono.w, nono.h, nono.cells.map((_, p) => nono.cells[(nono.h - 1 - Math.floor(p / nono.w)) * nono.w + (p % nono.w)])));

// The figures of the old picture are gone at once, the busy sign on.
function staleFigures() {
  for (const id of ["nono-count", "nono-line", "nono-rules", "nono-steps", "nono-bits-out", "nono-line-steps", "nono-line-bits"]) {
    $(id).textContent = "…";
  }
  $("nono-rules-why").textContent = "";
  $("nono-timing").textContent = "";
  $("nono-board-box").classList.remove("unsolvable");
  clearMarks("differ");
  nono.analysis = null;
}

function busy(on) {
  $("nono-board-box").classList.toggle("busy", on);
  $("nono-busy").classList.toggle("hidden", !on);
}

// Asks the analysis of the picture at once, cancelling the request for
// the picture before (its answer would be stale).
async function analyse() {
  if (nono.live) nono.live.abort();
  const live = nono.live = new AbortController(), picture = request();
  busy(true);
  try {
    const show = (a, first) => {
      showAnalysis(a);
      if (first) $("nono-message").textContent = "";
    };
    await analyseLiveThenFull("/api/nonogram/analyze", picture, live.signal, show, $("nono-timing"));
  } catch (e) {
    if (!live.signal.aborted) $("nono-message").textContent = e.message;
  } finally {
    if (nono.live === live) { busy(false); nono.live = null; }
  }
}

function yes(v) { return v === null || v === undefined ? "-" : (v ? "yes" : "no"); }

function showAnalysis(a) {
  nono.analysis = a;
  const count = a.solutions === null ? "unknown" : a.solutions === 0 ? "none" : a.solutions >= 2 ? "2+" : "1";
  const unknown = unfinished(a);
  const figure = v => (v ?? (unknown ? "unknown" : "-"));
  $("nono-count").textContent = count;
  $("nono-line").textContent = a.line_solvable === undefined ? "unknown" : yes(a.line_solvable);
  $("nono-rules").textContent = a.rules_refused ? "not played"
    : a.rules_solvable === null && unknown ? "unknown" : yes(a.rules_solvable);
  $("nono-rules-why").textContent = a.rules_refused || "";
  if (a.rules_file) $("nono-rules-file").textContent = a.rules_file;
  nameRules("nonogram", a.rules_file);
  $("nono-steps").textContent = a.rules_refused ? "-" : figure(a.steps);
  $("nono-bits-out").textContent = a.rules_refused ? "-" : figure(a.difficulty);
  $("nono-line-steps").textContent = figure(a.line_steps);
  $("nono-line-bits").textContent = figure(a.line_difficulty);
  $("nono-board-box").classList.toggle("unsolvable", a.solutions === 0);
  clearMarks("differ");
  for (const d of a.differ || []) $(cellId(d.row - 1, d.column - 1)).classList.add("differ");
}

drawBoard();
undoButtons();
changed();
