// The Witness panel (after Shen's editor): grid size, start and goal, the
// five kinds of constraint placed and removed from a palette (triangles,
// separation squares and stars in a colour, dots on vertices and edges,
// broken edges); after each change the solution count (a red frame when
// there is none) and the MSI/TSI of the uniform, local and rule players;
// solutions one at a time; square and edge placeholders and Generate
// (EPCG), the ranked variants listed, a click loads one (the base puzzle
// kept to return to); undo and redo; resize keeping the puzzle, shift and
// flip; open and export .ron. The figures
// are asked at once after each change, the stale request cancelled, the
// old figures cleared meanwhile. The board is drawn as docs/formats.md places it: vertex (0, 0) and
// square (0, 0) at the bottom left.
"use strict";

const SIDE = 64, MARGIN = 28;
// The colours of separation squares and stars, as the HTML pages draw them.
const MARK_COLOURS = ["#ffffff", "#111111", "#e8473b", "#3b8be8", "#4fc36b", "#b15ee0", "#f08a2e", "#2ec4c4"];

const wit = {
  w: 4, h: 4, start: [0, 0], goal: [4, 4],
  squares: new Map(),   // "c,r" -> { kind: "triangles" | "colour" | "star", n: count or colour }
  dots: new Set(),      // dot vertices "x,y"
  edges: new Map(),     // edge key -> "dot" | "broken"
  holes: new Set(),     // placeholder squares "c,r"
  edgeHoles: new Set(), // placeholder edges (edge keys)
  live: null, paths: [], shown: -1, complete: true,
  history: new History(), // the puzzles before each change
  base: null,             // the puzzle the variants shown were generated from
};

function key(c, r) { return c + "," + r; }
function unkey(k) { return k.split(",").map(Number); }

// An edge's key "x1,y1-x2,y2", its smaller end first.
function edgeKey(a, b) {
  const [p, q] = (a[0] < b[0] || (a[0] === b[0] && a[1] < b[1])) ? [a, b] : [b, a];
  return `${key(p[0], p[1])}-${key(q[0], q[1])}`;
}
function edgeEnds(k) { return k.split("-").map(unkey); }

// The puzzle in the one-line RON form of `.ron` files (lists only when
// they are not empty).
function ron() {
  const square = kind => [...wit.squares].filter(([, v]) => v.kind === kind).map(([k, v]) => `(${k.replace(",", ", ")}, ${v.n})`);
  const vertex = ([x, y]) => `(${x}, ${y})`;
  const edge = kind => [...wit.edges].filter(([, v]) => v === kind).map(([k]) => edgeEnds(k)).map(([a, b]) => `(${vertex(a)}, ${vertex(b)})`);
  const lists = [["triangles", square("triangles")], ["colours", square("colour")], ["stars", square("star")],
    ["dots", [...wit.dots].map(k => vertex(unkey(k)))], ["edge_dots", edge("dot")], ["broken", edge("broken")]];
  return `(width: ${wit.w}, height: ${wit.h}, start: ${vertex(wit.start)}, goal: ${vertex(wit.goal)}` +
    lists.filter(([, l]) => l.length).map(([name, l]) => `, ${name}: [${l.join(", ")}]`).join("") + ")";
}

// A copy of puzzle `s` (by default the one drawn) as the undo history
// keeps it.
function witState(s = wit) {
  return { w: s.w, h: s.h, start: s.start.slice(), goal: s.goal.slice(), squares: new Map(s.squares),
    dots: new Set(s.dots), edges: new Map(s.edges), holes: new Set(s.holes), edgeHoles: new Set(s.edgeHoles) };
}

// Shows puzzle state `s` (from witState).
function witShow(s) {
  Object.assign(wit, witState(s));
  $("wit-width").value = wit.w; $("wit-height").value = wit.h;
  witChanged();
}

function witUndoButtons() {
  $("wit-undo").disabled = !wit.history.past.length;
  $("wit-redo").disabled = !wit.history.future.length;
  $("wit-base").disabled = !wit.base;
}

// Before a change: the puzzle as it was, to undo to.
function witRecord(before) {
  wit.history.record(before || witState());
  witUndoButtons();
}

function witUndo() { const s = wit.history.undo(witState()); if (s) witShow(s); witUndoButtons(); }
function witRedo() { const s = wit.history.redo(witState()); if (s) witShow(s); witUndoButtons(); }
UNDO.witness = { undo: witUndo, redo: witRedo };
$("wit-undo").addEventListener("click", witUndo);
$("wit-redo").addEventListener("click", witRedo);
$("wit-base").addEventListener("click", () => {
  if (!wit.base) return;
  witRecord();
  witShow(wit.base);
});

// An edit of the puzzle: the variants listed, and the base they came
// from, no longer belong to it.
function witEdited() {
  wit.base = null;
  $("wit-variants").innerHTML = "";
  witUndoButtons();
  witChanged();
}

// Loads a puzzle as /api/witness/open gives it (a change that can be undone).
function loadPuzzle(p) {
  witRecord();
  Object.assign(wit, { w: p.width, h: p.height, start: p.start, goal: p.goal,
    squares: new Map(), dots: new Set(), edges: new Map(), holes: new Set(), edgeHoles: new Set() });
  for (const [kind, list] of [["triangles", p.triangles], ["colour", p.colours], ["star", p.stars]]) {
    for (const [c, r, n] of list) wit.squares.set(key(c, r), { kind, n });
  }
  for (const [x, y] of p.dots) wit.dots.add(key(x, y));
  for (const [a, b] of p.edge_dots) wit.edges.set(edgeKey(a, b), "dot");
  for (const [a, b] of p.broken) wit.edges.set(edgeKey(a, b), "broken");
  $("wit-width").value = wit.w; $("wit-height").value = wit.h;
  witChanged();
}

// Loads the puzzles of a `.ron` text; several are listed to pick from.
async function openRon(text, name) {
  const r = await api("/api/witness/open", new TextEncoder().encode(text).buffer);
  $("wit-variants").innerHTML = "";
  wit.base = null;
  loadPuzzle(r.puzzles[0]);
  if (r.puzzles.length > 1) {
    const list = $("wit-variants");
    list.innerHTML = "";
    r.puzzles.forEach((p, i) => {
      const li = document.createElement("li");
      li.textContent = `${name} #${i}: ${p.ron}`;
      li.addEventListener("click", () => loadPuzzle(p));
      list.appendChild(li);
    });
  }
}

function px(x) { return MARGIN + x * SIDE; }
function py(y) { return MARGIN + (wit.h - y) * SIDE; }

function svgEl(name, attrs, parent) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  parent.appendChild(el);
  return el;
}

// Every edge of the grid as [a, b], horizontal ones first.
function allEdges() {
  const out = [];
  for (let y = 0; y <= wit.h; y++) for (let x = 0; x < wit.w; x++) out.push([[x, y], [x + 1, y]]);
  for (let y = 0; y < wit.h; y++) for (let x = 0; x <= wit.w; x++) out.push([[x, y], [x, y + 1]]);
  return out;
}

// Draws the grid, its constraints, and the solution shown (if any).
function drawWitness() {
  const svg = $("wit-board");
  svg.innerHTML = "";
  svg.setAttribute("width", 2 * MARGIN + wit.w * SIDE);
  svg.setAttribute("height", 2 * MARGIN + wit.h * SIDE);
  for (let r = 0; r < wit.h; r++) {
    for (let c = 0; c < wit.w; c++) {
      const cls = "square" + (wit.holes.has(key(c, r)) ? " placeholder" : "");
      const sq = svgEl("rect", { id: `wsq-${c}-${r}`, class: cls, x: px(c) + 4, y: py(r + 1) + 4, width: SIDE - 8, height: SIDE - 8 }, svg);
      sq.dataset.c = c; sq.dataset.r = r;
      drawSquare(svg, c, r, wit.squares.get(key(c, r)));
    }
  }
  const edges = allEdges();
  for (const [a, b] of edges) drawEdge(svg, a, b, edgeKey(a, b));
  const path = wit.paths[wit.shown];
  if (path) svgEl("polyline", { class: "path", points: path.map(([a, b]) => `${px(a)},${py(b)}`).join(" ") }, svg);
  for (const [a, b] of edges) {
    const k = edgeKey(a, b), vertical = a[0] === b[0], [mx, my] = [(px(a[0]) + px(b[0])) / 2, (py(a[1]) + py(b[1])) / 2];
    const [w, h] = vertical ? [16, SIDE - 24] : [SIDE - 24, 16];
    const hit = svgEl("rect", { id: "we-" + k.replace(/,/g, "-"), class: "edge-hit", x: mx - w / 2, y: my - h / 2, width: w, height: h }, svg);
    hit.dataset.e = k;
    if (wit.edges.get(k) === "dot") hexagon(svg, mx, my);
  }
  for (let y = 0; y <= wit.h; y++) {
    for (let v = 0; v <= wit.w; v++) {
      const dot = svgEl("circle", { id: `wv-${v}-${y}`, class: "vertex", cx: px(v), cy: py(y), r: 7 }, svg);
      dot.dataset.x = v; dot.dataset.y = y;
      if (wit.dots.has(key(v, y))) hexagon(svg, px(v), py(y));
    }
  }
  svgEl("circle", { class: "start", cx: px(wit.start[0]), cy: py(wit.start[1]), r: 13 }, svg);
  svgEl("circle", { class: "goal", cx: px(wit.goal[0]), cy: py(wit.goal[1]), r: 13 }, svg);
}

// One edge: a line, a gap in the middle when broken, marked when a placeholder.
function drawEdge(svg, a, b, k) {
  const [x1, y1, x2, y2] = [px(a[0]), py(a[1]), px(b[0]), py(b[1])];
  const cls = "edge" + (wit.edgeHoles.has(k) ? " placeholder" : "");
  if (wit.edges.get(k) !== "broken") { svgEl("line", { class: cls, x1, y1, x2, y2 }, svg); return; }
  const at = t => [x1 + (x2 - x1) * t, y1 + (y2 - y1) * t];
  for (const [s, e] of [[0, 0.32], [0.68, 1]]) {
    const [p, q] = [at(s), at(e)];
    svgEl("line", { class: cls + " broken", x1: p[0], y1: p[1], x2: q[0], y2: q[1] }, svg);
  }
}

function hexagon(svg, x, y) {
  const points = [0, 1, 2, 3, 4, 5].map(k => `${x + 8 * Math.cos(k * Math.PI / 3)},${y + 8 * Math.sin(k * Math.PI / 3)}`);
  svgEl("polygon", { class: "dot", points: points.join(" ") }, svg);
}

// A square's constraint: triangles, a separation square or a star.
function drawSquare(svg, c, r, mark) {
  if (!mark) return;
  const cx = px(c) + SIDE / 2, cy = py(r) - SIDE / 2;
  if (mark.kind === "triangles") {
    const s = 9;
    for (let i = 0; i < mark.n; i++) {
      const dx = (i - (mark.n - 1) / 2) * (2 * s + 3);
      svgEl("polygon", { class: "triangle", points: `${cx + dx - s},${cy + s * 0.8} ${cx + dx + s},${cy + s * 0.8} ${cx + dx},${cy - s}` }, svg);
    }
    return;
  }
  const fill = MARK_COLOURS[mark.n - 1] || `hsl(${(mark.n * 47) % 360}, 70%, 55%)`;
  if (mark.kind === "colour") {
    svgEl("rect", { class: "mark", x: cx - 12, y: cy - 12, width: 24, height: 24, rx: 6, fill }, svg);
  } else {
    const points = [...Array(16).keys()].map(k => {
      const radius = k % 2 ? 9 : 15, angle = Math.PI * k / 8;
      return `${cx + radius * Math.cos(angle)},${cy + radius * Math.sin(angle)}`;
    });
    svgEl("polygon", { class: "mark", points: points.join(" "), fill }, svg);
  }
}

function tool() { return document.querySelector("input[name=wit-tool]:checked").value; }
function colour() { return Number($("wit-colour").value); }

function onBorder(v, y) { return v === 0 || y === 0 || v === wit.w || y === wit.h; }

function toggle(set, k) { if (set.has(k)) set.delete(k); else set.add(k); }

// What a click with tool `t` does to square `k`; false if nothing.
function onSquare(t, k) {
  if (t === "erase") { wit.squares.delete(k); wit.holes.delete(k); }
  else if (t === "placeholder") toggle(wit.holes, k);
  else if (t[0] === "t" && t.length === 2) wit.squares.set(k, { kind: "triangles", n: Number(t[1]) });
  else if (t === "colour" || t === "star") wit.squares.set(k, { kind: t, n: colour() });
  else return false;
  return true;
}

// What a click with tool `t` does to vertex `v`; false if nothing.
function onVertex(t, v) {
  const k = key(v[0], v[1]);
  if (t === "start") wit.start = v;
  else if (t === "goal") {
    if (!onBorder(v[0], v[1])) { $("wit-message").textContent = "the goal must be on the border"; return false; }
    wit.goal = v;
  } else if (t === "dot") toggle(wit.dots, k);
  else if (t === "erase") wit.dots.delete(k);
  else return false;
  return true;
}

// What a click with tool `t` does to edge `k`; false if nothing.
function onEdge(t, k) {
  if (t === "dot" || t === "broken") {
    if (wit.edges.get(k) === t) wit.edges.delete(k); else wit.edges.set(k, t);
  } else if (t === "erase") { wit.edges.delete(k); wit.edgeHoles.delete(k); }
  else if (t === "placeholder") toggle(wit.edgeHoles, k);
  else return false;
  return true;
}

$("wit-board").addEventListener("click", e => {
  const t = tool(), d = e.target.dataset, before = witState();
  const done = d.c !== undefined ? onSquare(t, key(d.c, d.r))
    : d.x !== undefined ? onVertex(t, [Number(d.x), Number(d.y)])
    : d.e !== undefined ? onEdge(t, d.e) : false;
  if (!done) return;
  witRecord(before);
  witEdited();
});

// After any change: the old figures and solutions go at once, the new
// ones are asked.
function witChanged() {
  wit.paths = []; wit.shown = -1;
  $("wit-solution-note").textContent = "";
  $("wit-count").textContent = "…";
  delete $("wit-board-box").dataset.analysed;
  $("wit-players").innerHTML = "";
  $("wit-message").textContent = "";
  $("wit-board-box").classList.remove("unsolvable");
  drawWitness();
  witAnalyse();
}

function sh(v) { return v === null ? "inf" : typeof v === "number" ? v.toFixed(2) : v; }

// Asks for the figures and the solutions of the puzzle drawn; the board
// box's data-analysed says which puzzle (RON) the figures shown are of.
async function witAnalyse() {
  if (wit.live) wit.live.abort();
  const live = wit.live = new AbortController(), puzzle = ron();
  const started = performance.now(), busy = $("wit-busy");
  busy.textContent = "measuring…";
  busy.classList.remove("hidden");
  clearInterval(wit.ticking);
  wit.ticking = setInterval(() => {
    busy.textContent = `measuring… ${((performance.now() - started) / 1000).toFixed(0)} s`;
  }, 1000);
  try {
    const [a, s] = await Promise.all([
      api("/api/witness/analyze", { puzzle }, live.signal),
      api("/api/witness/solutions", { puzzle, max: 100 }, live.signal),
    ]);
    $("wit-board-box").dataset.analysed = puzzle;
    $("wit-count").textContent = a.solutions_at_least !== undefined ? `at least ${a.solutions_at_least}` : a.solutions;
    $("wit-board-box").classList.toggle("unsolvable", a.solutions === 0);
    const why = p => p.stopped ? ` (${p.stopped})` : "";
    $("wit-players").innerHTML = "<tr><th>player</th><th>MSI (Sh)</th><th>TSI (Sh)</th></tr>" +
      (a.players || []).map(p => `<tr><td>${p.player}</td><td>${sh(p.msi)}${why(p)}</td><td>${sh(p.tsi)}${why(p)}</td></tr>`).join("");
    const rules = (a.players || []).find(p => p.player !== "uniform" && p.player !== "local");
    if (rules) nameRules("Witness", rules.player);
    wit.paths = s.paths || [];
    wit.complete = s.complete;
    const counted = a.solutions_at_least !== undefined ?
      `; the count of solutions stopped at ${a.solutions_at_least} found` : "";
    $("wit-message").textContent = (a.stopped === "timeout" ? `the analysis ran out of its ${a.budget_ms} ms: unknown` :
      a.stopped === "memory" ? "the players ran out of memory: unknown" :
      a.stopped ? `the players ran out of states (${a.stopped}): unknown` : "") + counted;
    showSolution(wit.paths.length ? 0 : -1);
  } catch (e) {
    if (live.signal.aborted) return;
    $("wit-board-box").dataset.analysed = puzzle;
    $("wit-count").textContent = "-";
    $("wit-players").innerHTML = "";
    $("wit-message").textContent = e.message;
  } finally {
    if (wit.live === live) { wit.live = null; clearInterval(wit.ticking); busy.classList.add("hidden"); }
  }
}

function showSolution(i) {
  wit.shown = i;
  const n = wit.paths.length;
  $("wit-solution-note").textContent = n ? `solution ${i + 1} of ${n}${wit.complete ? "" : "+"}` : "no solution";
  drawWitness();
}
$("wit-next").addEventListener("click", () => wit.paths.length && showSolution((wit.shown + 1) % wit.paths.length));
$("wit-prev").addEventListener("click", () => wit.paths.length && showSolution((wit.shown - 1 + wit.paths.length) % wit.paths.length));

// A side from its box: a whole number from 1 to 8, else null and the
// message says so.
function witSide(id) {
  const v = Number($(id).value);
  if (Number.isInteger(v) && v >= 1 && v <= 8) return v;
  $("wit-message").textContent = `${id.slice(4)}: expected a whole number from 1 to 8, found "${$(id).value}"`;
  return null;
}

$("wit-new").addEventListener("click", () => {
  const w = witSide("wit-width"), h = witSide("wit-height");
  if (!w || !h) return;
  wit.base = null;
  $("wit-variants").innerHTML = "";
  loadPuzzle({ width: w, height: h, start: [0, 0], goal: [w, h], triangles: [], colours: [], stars: [],
    dots: [], edge_dots: [], broken: [] });
});

$("wit-open").addEventListener("change", async e => {
  const file = e.target.files[0];
  if (!file) return;
  try { await openRon(await file.text(), file.name); }
  catch (err) { $("wit-message").textContent = file.name + ": " + err.message; }
  e.target.value = "";
});

$("wit-export").addEventListener("click", async () => {
  try { download("studio-witness.ron", (await api("/api/witness/export", { puzzle: ron() })).ron); }
  catch (e) { $("wit-message").textContent = e.message; }
});

$("wit-generate").addEventListener("click", async () => {
  const at = [...wit.holes].map(unkey), edge_at = [...wit.edgeHoles].map(edgeEnds);
  const list = $("wit-variants");
  if (!at.length && !edge_at.length) { list.innerHTML = "<li>mark placeholder squares or edges first (palette: placeholder)</li>"; return; }
  list.innerHTML = "<li>generating...</li>";
  try {
    const answer = await api("/api/witness/generate", { puzzle: ron(), at, edge_at, marks: $("wit-marks").checked,
      order: $("wit-order").value, top: 20 });
    const made = Array.isArray(answer) ? answer : answer.variants || [];
    list.innerHTML = made.length || !Array.isArray(answer) ? "" : "<li>no solvable variant</li>";
    if (!Array.isArray(answer)) {
      const li = document.createElement("li");
      li.textContent = `generation ran out of its ${answer.budget_ms} ms` +
        (answer.not_judged ? `: ${answer.not_judged} variants not judged` : "");
      list.prepend(li);
    }
    for (const m of made) {
      const li = document.createElement("li");
      const tsi = m.players.map(p => `${p.player === "local" ? "local" : "rules"} TSI ${sh(p.tsi)}`).join(", ");
      li.textContent = `${m.origin}: score ${sh(m.score)}, ${m.solutions} solutions; ${tsi}`;
      li.addEventListener("click", () => loadVariant(m).catch(e => { $("wit-message").textContent = e.message; }));
      list.appendChild(li);
    }
  } catch (e) { list.innerHTML = `<li>${e.message}</li>`; }
});

// The puzzle moved onto a w2 x h2 grid: `vertex` gives a vertex's new
// place, `square` a square's; what falls off the grid is dropped, a start
// off it goes to (0, 0), a goal off it or off its border to (w2, h2).
function witMoved(w2, h2, vertex, square) {
  const inGrid = ([x, y]) => x >= 0 && y >= 0 && x <= w2 && y <= h2;
  const inSquares = ([c, r]) => c >= 0 && r >= 0 && c < w2 && r < h2;
  const out = { w: w2, h: h2, squares: new Map(), dots: new Set(), edges: new Map(), holes: new Set(), edgeHoles: new Set() };
  const place = (k, map, fits) => { const p = map(unkey(k)); return fits(p) ? key(p[0], p[1]) : null; };
  const edge = k => { const [a, b] = edgeEnds(k).map(vertex); return inGrid(a) && inGrid(b) ? edgeKey(a, b) : null; };
  for (const [k, v] of wit.squares) { const q = place(k, square, inSquares); if (q) out.squares.set(q, v); }
  for (const k of wit.holes) { const q = place(k, square, inSquares); if (q) out.holes.add(q); }
  for (const k of wit.dots) { const q = place(k, vertex, inGrid); if (q) out.dots.add(q); }
  for (const [k, v] of wit.edges) { const q = edge(k); if (q) out.edges.set(q, v); }
  for (const k of wit.edgeHoles) { const q = edge(k); if (q) out.edgeHoles.add(q); }
  const start = vertex(wit.start), goal = vertex(wit.goal);
  out.start = inGrid(start) ? start : [0, 0];
  const border = ([x, y]) => x === 0 || y === 0 || x === w2 || y === h2;
  out.goal = inGrid(goal) && border(goal) ? goal : [w2, h2];
  return out;
}

// A move of the whole puzzle (a change that can be undone).
function witMove(moved) {
  witRecord();
  Object.assign(wit, moved);
  $("wit-width").value = wit.w; $("wit-height").value = wit.h;
  witEdited();
}

$("wit-resize").addEventListener("click", () => {
  const w = witSide("wit-width"), h = witSide("wit-height");
  if (w && h) witMove(witMoved(w, h, v => v, s => s));
});
for (const [dir, dx, dy] of [["left", -1, 0], ["right", 1, 0], ["up", 0, 1], ["down", 0, -1]]) {
  $("wit-shift-" + dir).addEventListener("click", () =>
    witMove(witMoved(wit.w, wit.h, ([x, y]) => [x + dx, y + dy], ([c, r]) => [c + dx, r + dy])));
}
$("wit-flip-h").addEventListener("click", () =>
  witMove(witMoved(wit.w, wit.h, ([x, y]) => [wit.w - x, y], ([c, r]) => [wit.w - 1 - c, r])));
$("wit-flip-v").addEventListener("click", () =>
  witMove(witMoved(wit.w, wit.h, ([x, y]) => [x, wit.h - y], ([c, r]) => [c, wit.h - 1 - r])));

// Loads a generated variant, the base puzzle (with its placeholders)
// kept to return to (the base button, or undo).
async function loadVariant(m) {
  const base = wit.base || witState();
  const r = await api("/api/witness/open", new TextEncoder().encode(m.puzzle).buffer);
  loadPuzzle(r.puzzles[0]);
  wit.base = base;
  witUndoButtons();
}

witUndoButtons();
witChanged();
