// The nonogram panel: paint a picture, its clues follow; after each change
// the server's analysis (solutions, line- and rule-solvability, difficulty,
// the cells where two solutions differ); hints stepping through the
// explanation; repairs shown before they are applied; random puzzles;
// open and export.
"use strict";

const nono = { w: 10, h: 10, cells: new Array(100).fill(false), seq: 0, timer: null,
  painting: null, hint: null, repairs: [], title: null };

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

// Draws the board: column clues on top, row clues on the left.
function drawBoard() {
  const t = $("nono-board");
  t.innerHTML = "";
  const head = t.insertRow();
  head.insertCell().className = "corner";
  for (let c = 0; c < nono.w; c++) {
    const td = head.insertCell();
    td.className = "colclue";
    td.id = "colclue-" + c;
  }
  for (let r = 0; r < nono.h; r++) {
    const tr = t.insertRow();
    const clue = tr.insertCell();
    clue.className = "clue";
    clue.id = "rowclue-" + r;
    for (let c = 0; c < nono.w; c++) {
      const td = tr.insertCell();
      td.className = "cell";
      td.id = "cell-" + r + "-" + c;
      td.dataset.p = r * nono.w + c;
    }
  }
  refresh();
}

// Shows the cells and the clues.
function refresh() {
  for (let p = 0; p < nono.cells.length; p++) {
    const td = $("cell-" + Math.floor(p / nono.w) + "-" + (p % nono.w));
    td.classList.toggle("on", nono.cells[p]);
  }
  for (let r = 0; r < nono.h; r++) $("rowclue-" + r).textContent = (runs(rowOf(r)).join(" ") || "0");
  for (let c = 0; c < nono.w; c++) $("colclue-" + c).innerHTML = (runs(colOf(c)).join("<br>") || "0");
}

function clearMarks(...names) {
  for (const td of document.querySelectorAll("#nono-board td.cell")) td.classList.remove(...names);
}

// After a change: the old hint and repairs no longer hold; analyse soon.
function changed() {
  closeHint();
  nono.repairs = [];
  $("repair-list").innerHTML = "";
  refresh();
  clearTimeout(nono.timer);
  nono.timer = setTimeout(analyse, 120);
}

// The live answer's budget: what is not done within it is `unknown`, and
// asked again with the server's budget.
const LIVE_MS = 100;

async function analyse() {
  const seq = ++nono.seq, picture = request();
  $("nono-board-box").classList.add("busy");
  try {
    let started = performance.now();
    let a = await api(`/api/nonogram/analyze?budget_ms=${LIVE_MS}`, picture);
    if (seq !== nono.seq) return;
    const live = `answered in ${Math.round(performance.now() - started)} ms (budget ${LIVE_MS} ms)`;
    showAnalysis(a);
    $("nono-message").textContent = "";
    if (!unfinished(a)) { $("nono-timing").textContent = live; return; }
    const partial = `${live} with ${a.solutions === null ? "the count" : "the difficulty"} unknown`;
    $("nono-timing").textContent = `${partial}; measuring with the server's budget...`;
    started = performance.now();
    a = await api("/api/nonogram/analyze", picture);
    if (seq !== nono.seq) return;
    showAnalysis(a);
    const full = Math.round(performance.now() - started);
    $("nono-timing").textContent = unfinished(a)
      ? `${partial}; with the server's budget (${full} ms) still unknown`
      : `${partial}; measured in full in ${full} ms with the server's budget`;
  } catch (e) {
    if (seq === nono.seq) $("nono-message").textContent = e.message;
  } finally {
    if (seq === nono.seq) $("nono-board-box").classList.remove("busy");
  }
}

// Whether an answer left something unknown (the count or a difficulty).
function unfinished(a) { return a.solutions === null || Boolean(a.difficulty_stopped); }

function yes(v) { return v === null || v === undefined ? "-" : (v ? "yes" : "no"); }

function showAnalysis(a) {
  const count = a.solutions === null ? "unknown" : a.solutions === 0 ? "none" : a.solutions >= 2 ? "2+" : "1";
  const unknown = unfinished(a);
  const figure = v => (v ?? (unknown ? "unknown" : "-"));
  $("nono-count").textContent = count;
  $("nono-line").textContent = a.line_solvable === undefined ? "unknown" : yes(a.line_solvable);
  $("nono-rules").textContent = a.rules_solvable === null && unknown ? "unknown" : yes(a.rules_solvable);
  $("nono-steps").textContent = figure(a.steps);
  $("nono-bits-out").textContent = figure(a.difficulty);
  $("nono-line-steps").textContent = figure(a.line_steps);
  $("nono-line-bits").textContent = figure(a.line_difficulty);
  $("nono-board-box").classList.toggle("unsolvable", a.solutions === 0);
  clearMarks("differ");
  for (const d of a.differ || []) $("cell-" + (d.row - 1) + "-" + (d.column - 1)).classList.add("differ");
}

// Painting: press on a cell sets it to the other colour, dragging paints
// the same colour.
function cellAt(e) {
  const td = e.target.closest ? e.target.closest("td.cell") : null;
  return td ? Number(td.dataset.p) : null;
}
$("nono-board").addEventListener("mousedown", e => {
  const p = cellAt(e);
  if (p === null) return;
  e.preventDefault();
  nono.painting = !nono.cells[p];
  nono.cells[p] = nono.painting;
  changed();
});
$("nono-board").addEventListener("mouseover", e => {
  const p = cellAt(e);
  if (p === null || nono.painting === null || nono.cells[p] === nono.painting) return;
  nono.cells[p] = nono.painting;
  changed();
});
window.addEventListener("mouseup", () => { nono.painting = null; });

function setPicture(w, h, cells, title) {
  nono.w = w; nono.h = h; nono.cells = cells; nono.title = title || null;
  $("nono-width").value = w; $("nono-height").value = h;
  drawBoard();
  changed();
}

$("nono-new").addEventListener("click", () => {
  const w = clamp(Number($("nono-width").value) || 10, 1, 50);
  const h = clamp(Number($("nono-height").value) || 10, 1, 50);
  setPicture(w, h, new Array(w * h).fill(false), null);
});

function cellsOf(text) { return Array.from(text).map(ch => ch === "1"); }

$("nono-open").addEventListener("change", async e => {
  const file = e.target.files[0];
  if (!file) return;
  try {
    const p = await api("/api/nonogram/open", await file.arrayBuffer());
    if (p.width > 50 || p.height > 50) throw new Error(`${p.width}x${p.height}: the studio paints up to 50x50`);
    setPicture(p.width, p.height, cellsOf(p.goal), p.title || file.name);
  } catch (err) {
    $("nono-message").textContent = file.name + ": " + err.message;
  }
  e.target.value = "";
});

$("nono-export").addEventListener("click", async () => {
  try {
    const r = await api("/api/nonogram/export", { ...request(), title: nono.title || "studio picture" });
    download((nono.title || "studio").replace(/[^A-Za-z0-9_-]+/g, "-") + ".non", r.non);
  } catch (e) { $("nono-message").textContent = e.message; }
});

$("nono-random").addEventListener("click", async () => {
  const w = clamp(Number($("nono-width").value) || 10, 1, 50);
  const h = clamp(Number($("nono-height").value) || 10, 1, 50);
  const bits = Math.max(0, Number($("nono-bits").value) || 0);
  $("nono-message").textContent = "looking for a random puzzle...";
  try {
    const r = await api("/api/nonogram/random", { width: w, height: h, player: $("nono-player").value,
      bits: "0.." + bits, seed: Math.floor(Math.random() * 1e9) });
    if (!r.puzzles || !r.puzzles.length) throw new Error(r.summary || "no puzzle found within the budget; try again");
    const m = r.puzzles[0];
    setPicture(m.width, m.height, cellsOf(m.goal), m.title);
    $("nono-message").textContent = "";
  } catch (e) { $("nono-message").textContent = e.message; }
});

// Hints: the explanation's steps, one at a time, on the board.
$("nono-hint").addEventListener("click", async () => {
  if (nono.hint) return showStep(Math.min(nono.hint.k + 1, nono.hint.steps.length - 1));
  try {
    const steps = await api("/api/nonogram/explain", request());
    if (!Array.isArray(steps)) throw new Error("the explanation ran out of time");
    if (!steps.length) throw new Error("nothing to explain: the picture is empty");
    nono.hint = { steps, k: 0 };
    $("nono-board").classList.add("hinting");
    showStep(0);
  } catch (e) { $("nono-message").textContent = e.message; }
});
$("nono-forward").addEventListener("click", () => nono.hint && showStep(Math.min(nono.hint.k + 1, nono.hint.steps.length - 1)));
$("nono-back").addEventListener("click", () => nono.hint && showStep(Math.max(nono.hint.k - 1, 0)));
$("nono-close-hint").addEventListener("click", closeHint);

function showStep(k) {
  nono.hint.k = k;
  clearMarks("known-on", "known-off", "now");
  const { steps } = nono.hint;
  for (let i = 0; i <= k; i++) {
    for (const c of steps[i].cells) {
      const td = $("cell-" + (c.row - 1) + "-" + (c.column - 1));
      td.classList.add(c.filled ? "known-on" : "known-off");
      if (i === k) td.classList.add("now");
    }
  }
  const s = steps[k];
  const who = s.how === "rule" ? `rule <span class="rule">${escapeHtml(s.rule)}</span>` : `the complete solver's ${s.how}`;
  $("nono-step").innerHTML = `<div>step ${k + 1} of ${steps.length}: ${who}</div>` +
    (s.description ? `<div class="desc">${escapeHtml(s.description)}</div>` : "") +
    `<div>${escapeHtml(s.heading)}</div>` + s.notes.map(n => `<div>${escapeHtml(n)}</div>`).join("");
  $("nono-back").disabled = k === 0;
  $("nono-forward").disabled = k === steps.length - 1;
  $("nono-close-hint").disabled = false;
}

function closeHint() {
  nono.hint = null;
  $("nono-board").classList.remove("hinting");
  clearMarks("known-on", "known-off", "now");
  $("nono-step").innerHTML = "";
  $("nono-back").disabled = $("nono-forward").disabled = $("nono-close-hint").disabled = true;
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"]/g, ch => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]);
}

// Repairs: proposals listed; hovering shows the changed cells, Apply
// applies one.
$("nono-repair").addEventListener("click", async () => {
  $("repair-list").innerHTML = "<li>searching...</li>";
  try {
    const r = await api("/api/nonogram/repair", { ...request(), player: $("nono-player").value });
    if (r.stopped) throw new Error("the repair search ran out of time");
    nono.repairs = r.puzzles || [];
    const list = $("repair-list");
    list.innerHTML = "";
    if (!nono.repairs.length) list.innerHTML = `<li>${escapeHtml(r.summary)}</li>`;
    nono.repairs.forEach((m, i) => {
      const li = document.createElement("li");
      const words = m.changed.map(c => `row ${c.row} column ${c.column} ${c.black ? "black" : "white"}`).join(", ");
      li.innerHTML = m.changed.length
        ? `${m.changed.length} changed: ${escapeHtml(words)}; ${m.steps} steps <button class="repair-apply" data-i="${i}">Apply</button>`
        : "nothing to change: unique and solved by the player without guessing";
      li.addEventListener("mouseenter", () => markRepair(m));
      li.addEventListener("mouseleave", () => clearMarks("plus", "minus"));
      list.appendChild(li);
    });
  } catch (e) { $("repair-list").innerHTML = `<li>${escapeHtml(e.message)}</li>`; }
});

function markRepair(m) {
  for (const c of m.changed) $("cell-" + (c.row - 1) + "-" + (c.column - 1)).classList.add(c.black ? "plus" : "minus");
}

$("repair-list").addEventListener("click", e => {
  const b = e.target.closest("button.repair-apply");
  if (!b) return;
  const m = nono.repairs[Number(b.dataset.i)];
  nono.cells = cellsOf(m.goal);
  clearMarks("plus", "minus");
  changed();
});

drawBoard();
changed();
