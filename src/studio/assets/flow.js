// The Flow panel: the board drawn as SVG, endpoints placed, moved and
// removed by clicks in the chosen colour (a colour has two endpoints),
// undo and redo, resize, shift and flip; after each change (once every
// colour has its two endpoints) the server's analysis: the count, the
// learned and the control set's verdicts and difficulty, the solution
// drawn as coloured paths (and where two solutions differ), asked at once,
// the stale request cancelled; Hint steps through the explanation, each
// step's rule named and its links and cuts outlined; Generate loads a
// puzzle made to order; Repair proposes the fewest endpoint changes that
// make the puzzle unique; files open and export in the three layouts.
"use strict";

(() => {
  // The characters naming colours, colour k (from 1) being NAMES[k - 1].
  const NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  // The largest side drawn.
  const MAX = 30;
  // The first colours as Flow players know them, then hues around the wheel.
  const PALETTE = ["#e22", "#1a4ee8", "#1c9a2c", "#e8d21a", "#f08a0c", "#19c8d8", "#d01fd0", "#8b2a12",
    "#7a28b8", "#8a8a8a", "#fff1a8", "#1ad896", "#1a1a8a", "#6a8a1a", "#f07aa8", "#7ab8f0"];

  const flow = { w: 7, h: 7, cells: new Array(49).fill(0), title: null, colour: 1, held: null,
    history: new History(), live: null, analysis: null, hint: null, puzzles: [], repaired: null };

  function colourOf(k) {
    return k <= PALETTE.length ? PALETTE[k - 1] : `hsl(${(k * 137.5) % 360}, 70%, 45%)`;
  }

  // Endpoints of colour k on the board.
  function endsOf(k) { return flow.cells.reduce((n, v) => n + (v === k ? 1 : 0), 0); }

  // The colours with one endpoint only.
  function lonely() {
    const seen = new Map();
    for (const v of flow.cells) if (v) seen.set(v, (seen.get(v) || 0) + 1);
    return [...seen].filter(([, n]) => n === 1).map(([k]) => k).sort((a, b) => a - b);
  }

  // The puzzle as the grid layout (its title kept as metadata).
  function text() {
    const title = flow.title ? `# title "${flow.title.replace(/"/g, "'")}"\n` : "";
    let rows = "";
    for (let y = 0; y < flow.h; y++) {
      for (let x = 0; x < flow.w; x++) { const v = flow.cells[y * flow.w + x]; rows += v ? NAMES[v - 1] : "."; }
      rows += "\n";
    }
    return title + rows;
  }

  // The cell's side in pixels.
  function side() { return clamp(Math.floor(520 / Math.max(flow.w, flow.h)), 16, 44); }

  function svg(name, attrs, parent) {
    const el = document.createElementNS("http://www.w3.org/2000/svg", name);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    parent.appendChild(el);
    return el;
  }

  // A cell's centre.
  function centre(x, y) { const s = side(); return [x * s + s / 2, y * s + s / 2]; }

  // The colour of each cell on the paths of `links` ([[x, y], [x, y]]
  // pairs), followed from the endpoints.
  function pathColours(links) {
    const { w } = flow, next = new Map(), colour = flow.cells.slice();
    const add = (a, b) => { if (!next.has(a)) next.set(a, []); next.get(a).push(b); };
    for (const [[x1, y1], [x2, y2]] of links) { add(y1 * w + x1, y2 * w + x2); add(y2 * w + x2, y1 * w + x1); }
    const queue = flow.cells.map((v, p) => (v ? p : -1)).filter(p => p >= 0);
    while (queue.length) {
      const p = queue.shift();
      for (const q of next.get(p) || []) if (!colour[q]) { colour[q] = colour[p]; queue.push(q); }
    }
    return colour;
  }

  // Draws the board: cells, the solution's paths (or the hint's links and
  // cuts), the differing links, the endpoints.
  function draw() {
    const s = side(), board = $("flow-board"), { w, h } = flow;
    board.innerHTML = "";
    board.setAttribute("width", w * s + 2);
    board.setAttribute("height", h * s + 2);
    const g = svg("g", { transform: "translate(1,1)" }, board);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        svg("rect", { x: x * s, y: y * s, width: s, height: s, class: "cell", id: `flow-cell-${x}-${y}`, "data-p": y * w + x }, g);
      }
    }
    const a = flow.analysis;
    if (flow.hint) drawHint(g);
    else if (a && a.solution) drawLinks(g, a.solution.links, pathColours(a.solution.links), "path");
    if (!flow.hint && a && a.differ) {
      for (const [[x1, y1], [x2, y2]] of a.differ) {
        const [ax, ay] = centre(x1, y1), [bx, by] = centre(x2, y2);
        svg("line", { x1: ax, y1: ay, x2: bx, y2: by, class: "differ" }, g);
      }
    }
    for (let p = 0; p < w * h; p++) {
      const k = flow.cells[p];
      if (!k) continue;
      const [cx, cy] = centre(p % w, Math.floor(p / w));
      const held = flow.held && flow.held.p === p;
      svg("circle", { cx, cy, r: s * 0.36, fill: colourOf(k), class: "end" + (held ? " held" : ""), id: `flow-end-${p % w}-${Math.floor(p / w)}` }, g);
      const t = svg("text", { x: cx, y: cy + s * 0.13, class: "end-name", "font-size": s * 0.36 }, g);
      t.textContent = NAMES[k - 1];
    }
  }

  // Lines between the cells of `links`, coloured by `colour` (per cell).
  function drawLinks(g, links, colour, cls) {
    const s = side();
    for (const [[x1, y1], [x2, y2]] of links) {
      const [ax, ay] = centre(x1, y1), [bx, by] = centre(x2, y2);
      const k = colour[y1 * flow.w + x1] || colour[y2 * flow.w + x2];
      svg("line", { x1: ax, y1: ay, x2: bx, y2: by, class: cls, stroke: k ? colourOf(k) : "#555", "stroke-width": s * 0.3 }, g);
    }
  }

  // The hint's state after its step k: the links so far in their colours,
  // the cuts as small bars across their sides; step k's outlined.
  function drawHint(g) {
    const { steps, k } = flow.hint, links = [], s = side();
    for (let i = 0; i <= k; i++) links.push(...steps[i].link);
    drawLinks(g, links, pathColours(links), "path known");
    for (let i = 0; i <= k; i++) {
      for (const [[x1, y1], [x2, y2]] of steps[i].cut) {
        const [ax, ay] = centre(x1, y1), [bx, by] = centre(x2, y2), mx = (ax + bx) / 2, my = (ay + by) / 2;
        const across = x1 === x2 ? [s * 0.3, 0] : [0, s * 0.3];
        svg("line", { x1: mx - across[0], y1: my - across[1], x2: mx + across[0], y2: my + across[1], class: "cut" + (i === k ? " now" : "") }, g);
      }
    }
    for (const [[x1, y1], [x2, y2]] of steps[k].link) {
      const [ax, ay] = centre(x1, y1), [bx, by] = centre(x2, y2);
      svg("line", { x1: ax, y1: ay, x2: bx, y2: by, class: "link-now" }, g);
    }
  }

  // The colour picker: one swatch per colour used and the next free one;
  // a swatch says how many endpoints its colour has.
  function palette() {
    const box = $("flow-palette"), used = Math.max(0, ...flow.cells);
    const last = Math.min(NAMES.length, Math.max(used + 1, flow.colour));
    box.innerHTML = "";
    for (let k = 1; k <= last; k++) {
      const b = document.createElement("button"), n = endsOf(k);
      b.className = "swatch" + (k === flow.colour ? " chosen" : "") + (n === 1 ? " lonely" : "");
      b.id = "flow-colour-" + NAMES[k - 1];
      b.style.background = colourOf(k);
      b.textContent = NAMES[k - 1];
      b.title = `colour ${NAMES[k - 1]}: ${n} of 2 endpoints placed`;
      b.addEventListener("click", () => { flow.colour = k; palette(); });
      box.appendChild(b);
    }
    $("flow-held").textContent = flow.held ? `moving ${NAMES[flow.cells[flow.held.p] - 1]}: click an empty cell (Esc: put it back)` : "";
  }

  function snapshot() { return { w: flow.w, h: flow.h, cells: flow.cells.slice(), title: flow.title }; }

  function record(before) { flow.history.record(before || snapshot()); undoButtons(); }

  function undoButtons() {
    $("flow-undo").disabled = !flow.history.past.length;
    $("flow-redo").disabled = !flow.history.future.length;
  }

  // After a change: the figures, hint and held endpoint of the old puzzle
  // are gone; the new one is analysed at once if every colour has its two
  // endpoints.
  function changed() {
    flow.held = null;
    flow.repaired = null;
    $("flow-repair-apply").classList.add("hidden");
    $("flow-repair-note").textContent = "";
    closeHint();
    staleFigures();
    palette();
    draw();
    const alone = lonely(), empty = !flow.cells.some(v => v);
    if (alone.length || empty) {
      if (flow.live) flow.live.abort();
      busy(false);
      for (const id of FIGURES) $(id).textContent = "-";
      $("flow-message").textContent = empty ? "no endpoints yet: click a cell to place one of the chosen colour"
        : `colour ${alone.map(k => NAMES[k - 1]).join(", ")} has one endpoint: place its second`;
      return;
    }
    $("flow-message").textContent = "";
    analyse();
  }

  function show(s) {
    flow.w = s.w; flow.h = s.h; flow.cells = s.cells; flow.title = s.title;
    $("flow-width").value = s.w; $("flow-height").value = s.h;
    changed();
  }

  // A new puzzle (a change that can be undone).
  function setPuzzle(w, h, cells, title) { record(); show({ w, h, cells, title: title === undefined ? flow.title : title }); }

  function undo() { const s = flow.history.undo(snapshot()); if (s) show(s); undoButtons(); }
  function redo() { const s = flow.history.redo(snapshot()); if (s) show(s); undoButtons(); }
  UNDO.flow = { undo, redo };
  $("flow-undo").addEventListener("click", undo);
  $("flow-redo").addEventListener("click", redo);

  // The cell under a pointer event, or null.
  function cellAt(e) {
    const r = $("flow-board").getBoundingClientRect(), s = side();
    const x = Math.floor((e.clientX - r.left - 1) / s), y = Math.floor((e.clientY - r.top - 1) / s);
    return x >= 0 && x < flow.w && y >= 0 && y < flow.h ? y * flow.w + x : null;
  }

  // The least colour with fewer than two endpoints.
  function nextFree() { let k = 1; while (k < NAMES.length && endsOf(k) >= 2) k++; return k; }

  function removeAt(p) {
    const k = flow.cells[p];
    if (!k) return;
    record();
    flow.cells[p] = 0;
    flow.colour = k;
    changed();
  }

  // A click: with the remove tool (or the right button) an endpoint is
  // removed; else a held endpoint is put down on an empty cell, an
  // endpoint picked up, or an endpoint of the chosen colour placed.
  $("flow-board").addEventListener("pointerdown", e => {
    const p = cellAt(e);
    if (p === null || (e.button !== 0 && e.button !== 2)) return;
    e.preventDefault();
    const k = flow.cells[p];
    if (e.button === 2 || document.querySelector("input[name=flow-tool]:checked").value === "remove") return removeAt(p);
    if (flow.held) {
      if (p === flow.held.p || k) { flow.held = k && p !== flow.held.p ? { p } : null; palette(); draw(); return; }
      const from = flow.held.p;
      record();
      flow.cells[p] = flow.cells[from];
      flow.cells[from] = 0;
      return changed();
    }
    if (k) { flow.held = { p }; flow.colour = k; palette(); draw(); return; }
    if (endsOf(flow.colour) >= 2) {
      $("flow-message").textContent = `colour ${NAMES[flow.colour - 1]} has its two endpoints: click one to move it, or choose another colour`;
      return;
    }
    record();
    flow.cells[p] = flow.colour;
    if (endsOf(flow.colour) === 2) flow.colour = nextFree();
    changed();
  });
  $("flow-board").addEventListener("contextmenu", e => e.preventDefault());
  window.addEventListener("keydown", e => {
    if (e.key === "Escape" && flow.held) { flow.held = null; palette(); draw(); }
  });

  // A side from its box: a whole number from 1 to MAX, else null and the
  // message says so.
  function sideOf(id) {
    const v = Number($(id).value);
    if (Number.isInteger(v) && v >= 1 && v <= MAX) return v;
    $("flow-message").textContent = `${id.slice(5)}: expected a whole number from 1 to ${MAX}, found "${$(id).value}"`;
    return null;
  }

  $("flow-new").addEventListener("click", () => {
    const w = sideOf("flow-width"), h = sideOf("flow-height");
    if (w && h) { flow.colour = 1; setPuzzle(w, h, new Array(w * h).fill(0), null); }
  });

  // The endpoints moved by (dx, dy) within a w x h board (those moved off it are lost).
  function moved(w, h, dx, dy, map = (x, y) => [x, y]) {
    const out = new Array(w * h).fill(0);
    for (let y = 0; y < flow.h; y++) {
      for (let x = 0; x < flow.w; x++) {
        const [x2, y2] = map(x, y).map((v, i) => v + [dx, dy][i]);
        if (x2 >= 0 && x2 < w && y2 >= 0 && y2 < h) out[y2 * w + x2] = flow.cells[y * flow.w + x];
      }
    }
    return out;
  }

  $("flow-resize").addEventListener("click", () => {
    const w = sideOf("flow-width"), h = sideOf("flow-height");
    if (w && h) setPuzzle(w, h, moved(w, h, 0, 0));
  });
  for (const [dir, dx, dy] of [["left", -1, 0], ["right", 1, 0], ["up", 0, -1], ["down", 0, 1]]) {
    $("flow-shift-" + dir).addEventListener("click", () => setPuzzle(flow.w, flow.h, moved(flow.w, flow.h, dx, dy)));
  }
  $("flow-flip-h").addEventListener("click", () => setPuzzle(flow.w, flow.h, moved(flow.w, flow.h, 0, 0, (x, y) => [flow.w - 1 - x, y])));
  $("flow-flip-v").addEventListener("click", () => setPuzzle(flow.w, flow.h, moved(flow.w, flow.h, 0, 0, (x, y) => [x, flow.h - 1 - y])));

  const FIGURES = ["flow-count", "flow-rules", "flow-steps", "flow-bits", "flow-control", "flow-control-steps", "flow-control-bits"];

  function staleFigures() {
    for (const id of FIGURES) $(id).textContent = "…";
    $("flow-timing").textContent = "";
    $("flow-board-box").classList.remove("unsolvable");
    flow.analysis = null;
  }

  function busy(on) {
    $("flow-board-box").classList.toggle("busy", on);
    $("flow-busy").classList.toggle("hidden", !on);
  }

  // Asks the analysis of the puzzle at once, cancelling the request for
  // the puzzle before (its answer would be stale): first within LIVE_MS,
  // then, if something is unknown, with the server's budget.
  async function analyse() {
    if (flow.live) flow.live.abort();
    const live = flow.live = new AbortController(), puzzle = { puzzle: text() };
    busy(true);
    try {
      await analyseLiveThenFull("/api/flow/analyze", puzzle, live.signal, showAnalysis, $("flow-timing"));
    } catch (e) {
      if (!live.signal.aborted) $("flow-message").textContent = e.message;
    } finally {
      if (flow.live === live) { busy(false); flow.live = null; }
    }
  }

  function yes(v) { return v === null || v === undefined ? "-" : (v ? "yes" : "no"); }

  function showAnalysis(a) {
    flow.analysis = a;
    const count = a.solutions === null ? "unknown" : a.solutions === 0 ? "none" : a.solutions >= 2 ? "2+" : "1";
    $("flow-count").textContent = count;
    const [learned, control] = a.players || [{}, {}];
    const figure = (p, key) => (p.stopped ? "unknown" : p[key] ?? "-");
    $("flow-rules").textContent = learned.stopped ? "unknown" : yes(learned.rules_solvable);
    $("flow-steps").textContent = figure(learned, "steps");
    $("flow-bits").textContent = figure(learned, "difficulty");
    $("flow-control").textContent = control.stopped ? "unknown" : yes(control.rules_solvable);
    $("flow-control-steps").textContent = figure(control, "steps");
    $("flow-control-bits").textContent = figure(control, "difficulty");
    if (learned.rules_file) $("flow-rules-file").textContent = learned.rules_file;
    if (control.rules_file) $("flow-control-file").textContent = control.rules_file;
    nameRules("Flow", a.rules_file);
    $("flow-board-box").classList.toggle("unsolvable", a.solutions === 0);
    $("flow-board-box").dataset.analysed = text();
    draw();
  }

  // Hints: the explanation's steps, one at a time, on the board.
  $("flow-hint").addEventListener("click", async () => {
    if (flow.hint) return stepTo(flow.hint.k + 1);
    try {
      const asked = text(), a = await api("/api/flow/explain", { puzzle: asked });
      if (asked !== text()) return;
      if (!a.steps) throw new Error("the explanation ran out of time");
      if (!a.steps.length) throw new Error("nothing to explain: the board has no open side");
      flow.hint = { steps: a.steps, headings: a.headings, k: 0 };
      showStep(0);
    } catch (e) { $("flow-message").textContent = e.message; }
  });

  function stepTo(k) { if (flow.hint) showStep(clamp(k, 0, flow.hint.steps.length - 1)); }
  $("flow-first").addEventListener("click", () => stepTo(0));
  $("flow-back").addEventListener("click", () => flow.hint && stepTo(flow.hint.k - 1));
  $("flow-forward").addEventListener("click", () => flow.hint && stepTo(flow.hint.k + 1));
  $("flow-last").addEventListener("click", () => flow.hint && stepTo(flow.hint.steps.length - 1));
  $("flow-close-hint").addEventListener("click", () => { closeHint(); draw(); });

  function showStep(k) {
    flow.hint.k = k;
    const { steps, headings } = flow.hint, s = steps[k], d = headings[k];
    const who = s.rule !== null ? `rule <span class="rule">${escapeHtml(s.rule)}</span>` : `the complete solver's ${s.how}`;
    $("flow-step").innerHTML = `<div>step ${k + 1} of ${steps.length}: ${who}</div>` +
      `<div>${escapeHtml(d.heading)}</div>` + d.notes.map(n => `<div>${escapeHtml(n)}</div>`).join("");
    $("flow-first").disabled = $("flow-back").disabled = k === 0;
    $("flow-forward").disabled = $("flow-last").disabled = k === steps.length - 1;
    $("flow-close-hint").disabled = false;
    draw();
  }

  function closeHint() {
    flow.hint = null;
    $("flow-step").innerHTML = "";
    for (const id of ["flow-first", "flow-back", "flow-forward", "flow-last", "flow-close-hint"]) $(id).disabled = true;
  }

  // A puzzle of the open or generate answers (`rows` of characters) loaded.
  function load(p) {
    const cells = [];
    for (const row of p.rows) for (const ch of row) cells.push(ch === "." ? 0 : NAMES.indexOf(ch) + 1);
    flow.colour = 1;
    setPuzzle(p.width, p.height, cells, p.title || null);
    flow.colour = nextFree();
    palette();
  }

  $("flow-generate").addEventListener("click", async () => {
    const w = sideOf("flow-width"), h = sideOf("flow-height");
    if (!w || !h) return;
    const body = { width: w, height: h, player: $("flow-gen-player").value, seed: Number($("flow-seed").value) || 0 };
    if ($("flow-colours").value !== "") body.colours = Number($("flow-colours").value);
    $("flow-gen-note").textContent = "generating…";
    try {
      const a = await api("/api/flow/generate", body);
      if (!a.puzzles) throw new Error(a.judged === undefined ? `no puzzle within the budget (${a.budget_ms} ms)`
        : `no puzzle within the budget (${a.judged} candidates judged)`);
      const m = a.puzzles[0];
      load({ width: m.width, height: m.height, rows: m.grid.trim().split("\n"), title: null });
      $("flow-gen-note").textContent = `${a.summary[0]}; ${m.steps} steps, ${m.bits.toFixed(2)} bits`;
    } catch (e) { $("flow-gen-note").textContent = ""; $("flow-message").textContent = e.message; }
  });

  // Repair: the fewest endpoint changes that make the puzzle unique and
  // solved by the player chosen, said first and applied on request.
  $("flow-repair").addEventListener("click", async () => {
    const asked = text();
    $("flow-repair-note").textContent = "repairing…";
    $("flow-repair-apply").classList.add("hidden");
    try {
      const a = await api("/api/flow/repair", { puzzle: asked, player: $("flow-gen-player").value });
      if (asked !== text()) return;
      if (!a.summary) throw new Error(`no repair within the budget (${a.budget_ms} ms)`);
      $("flow-repair-note").textContent = a.summary[0];
      const m = a.puzzles[0];
      if (m && m.changed.length) {
        flow.repaired = m;
        $("flow-repair-apply").classList.remove("hidden");
      }
    } catch (e) { $("flow-repair-note").textContent = ""; $("flow-message").textContent = e.message; }
  });
  $("flow-repair-apply").addEventListener("click", () => {
    const m = flow.repaired;
    if (!m) return;
    load({ width: m.width, height: m.height, rows: m.grid.trim().split("\n").filter(l => !l.startsWith("#")), title: flow.title });
  });

  $("flow-open").addEventListener("change", async () => {
    const file = $("flow-open").files[0];
    if (!file) return;
    try {
      const a = await api("/api/flow/open", await file.arrayBuffer());
      flow.puzzles = a.puzzles;
      const pick = $("flow-pick");
      pick.innerHTML = a.puzzles.map((p, i) => `<option value="${i}">${i + 1}: ${escapeHtml(p.title || `${p.width}x${p.height}`)}</option>`).join("");
      pick.classList.toggle("hidden", a.puzzles.length < 2);
      load(a.puzzles[0]);
      $("flow-message").textContent = a.puzzles.length > 1 ? `${file.name} holds ${a.puzzles.length} puzzles: the first is loaded; pick another beside Open` : "";
    } catch (e) { $("flow-message").textContent = e.message; }
    $("flow-open").value = "";
  });
  $("flow-pick").addEventListener("change", () => load(flow.puzzles[Number($("flow-pick").value)]));

  $("flow-export").addEventListener("click", async () => {
    try {
      const a = await api("/api/flow/export", { puzzle: text() }), layout = $("flow-layout").value;
      download(`puzzle-${layout}.flow`, a[layout]);
    } catch (e) { $("flow-message").textContent = e.message; }
  });

  $("flow-width").value = flow.w;
  $("flow-height").value = flow.h;
  undoButtons();
  closeHint();
  changed();
})();
