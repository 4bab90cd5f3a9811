// The Witness panel (after Shen's editor): grid size, start and goal,
// constraints placed and removed from a palette; after each change the
// solution count (a red frame when there is none) and the MSI/TSI of the
// uniform, local and rule players; solutions one at a time; placeholders
// and Generate (EPCG), the ranked variants listed, a click loads one;
// export .ron.
"use strict";

const SIDE = 64, MARGIN = 28;
const wit = { w: 4, h: 4, start: [0, 0], goal: [4, 4], tri: new Map(), holes: new Set(),
  seq: 0, timer: null, paths: [], shown: -1 };

function key(c, r) { return c + "," + r; }

// The puzzle in the one-line RON form of `.ron` files.
function ron() {
  const tris = [];
  for (let r = 0; r < wit.h; r++) {
    for (let c = 0; c < wit.w; c++) {
      const n = wit.tri.get(key(c, r));
      if (n) tris.push(`(${c}, ${r}, ${n})`);
    }
  }
  return `(width: ${wit.w}, height: ${wit.h}, start: (${wit.start[0]}, ${wit.start[1]}), ` +
    `goal: (${wit.goal[0]}, ${wit.goal[1]}), triangles: [${tris.join(", ")}])`;
}

// A puzzle from its RON text (as the server writes it).
function loadRon(text) {
  const num = name => text.match(new RegExp(name + ":\\s*(\\d+)"))[1] | 0;
  const pair = name => text.match(new RegExp(name + ":\\s*\\((\\d+),\\s*(\\d+)\\)")).slice(1, 3).map(Number);
  wit.w = num("width"); wit.h = num("height");
  wit.start = pair("start"); wit.goal = pair("goal");
  wit.tri = new Map();
  const list = text.slice(text.indexOf("triangles:"));
  for (const m of list.matchAll(/\((\d+),\s*(\d+),\s*(\d+)\)/g)) wit.tri.set(key(m[1], m[2]), Number(m[3]));
  wit.holes = new Set();
  $("wit-width").value = wit.w; $("wit-height").value = wit.h;
  witChanged();
}

function x(v) { return MARGIN + v * SIDE; }

function svgEl(name, attrs, parent) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", name);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  parent.appendChild(el);
  return el;
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
      const sq = svgEl("rect", { id: `wsq-${c}-${r}`, class: cls, x: x(c) + 4, y: x(r) + 4, width: SIDE - 8, height: SIDE - 8 }, svg);
      sq.dataset.c = c; sq.dataset.r = r;
      drawTriangles(svg, c, r, wit.tri.get(key(c, r)) || 0);
    }
  }
  for (let y = 0; y <= wit.h; y++) svgEl("line", { class: "edge", x1: x(0), y1: x(y), x2: x(wit.w), y2: x(y) }, svg);
  for (let v = 0; v <= wit.w; v++) svgEl("line", { class: "edge", x1: x(v), y1: x(0), x2: x(v), y2: x(wit.h) }, svg);
  const path = wit.paths[wit.shown];
  if (path) svgEl("polyline", { class: "path", points: path.map(([a, b]) => `${x(a)},${x(b)}`).join(" ") }, svg);
  for (let y = 0; y <= wit.h; y++) {
    for (let v = 0; v <= wit.w; v++) {
      const dot = svgEl("circle", { id: `wv-${v}-${y}`, class: "vertex", cx: x(v), cy: x(y), r: 7 }, svg);
      dot.dataset.x = v; dot.dataset.y = y;
    }
  }
  svgEl("circle", { class: "start", cx: x(wit.start[0]), cy: x(wit.start[1]), r: 13 }, svg).style.pointerEvents = "none";
  svgEl("circle", { class: "goal", cx: x(wit.goal[0]), cy: x(wit.goal[1]), r: 13 }, svg).style.pointerEvents = "none";
}

function drawTriangles(svg, c, r, n) {
  const cx = x(c) + SIDE / 2, cy = x(r) + SIDE / 2, s = 9;
  for (let i = 0; i < n; i++) {
    const dx = (i - (n - 1) / 2) * (2 * s + 3);
    svgEl("polygon", { class: "triangle", points: `${cx + dx - s},${cy + s * 0.8} ${cx + dx + s},${cy + s * 0.8} ${cx + dx},${cy - s}` }, svg);
  }
}

function tool() { return document.querySelector("input[name=wit-tool]:checked").value; }

function onBorder(v, y) { return v === 0 || y === 0 || v === wit.w || y === wit.h; }

$("wit-board").addEventListener("click", e => {
  const t = tool();
  const d = e.target.dataset;
  if (d.c !== undefined) {
    const k = key(d.c, d.r);
    if (t === "erase") { wit.tri.delete(k); wit.holes.delete(k); }
    else if (t === "placeholder") { if (wit.holes.has(k)) wit.holes.delete(k); else wit.holes.add(k); }
    else if (t[0] === "t") wit.tri.set(k, Number(t[1]));
    else return;
  } else if (d.x !== undefined) {
    const v = [Number(d.x), Number(d.y)];
    if (t === "start") wit.start = v;
    else if (t === "goal") {
      if (!onBorder(v[0], v[1])) { $("wit-message").textContent = "the goal must be on the border"; return; }
      wit.goal = v;
    } else return;
  } else return;
  witChanged();
});

function witChanged() {
  wit.paths = []; wit.shown = -1;
  $("wit-solution-note").textContent = "";
  drawWitness();
  clearTimeout(wit.timer);
  wit.timer = setTimeout(witAnalyse, 120);
}

function sh(v) { return v === null ? "inf" : typeof v === "number" ? v.toFixed(2) : v; }

async function witAnalyse() {
  const seq = ++wit.seq;
  try {
    const [a, s] = await Promise.all([
      api("/api/witness/analyze", { puzzle: ron() }),
      api("/api/witness/solutions", { puzzle: ron(), max: 100 }),
    ]);
    if (seq !== wit.seq) return;
    $("wit-count").textContent = a.solutions;
    $("wit-board-box").classList.toggle("unsolvable", a.solutions === 0);
    $("wit-players").innerHTML = "<tr><th>player</th><th>MSI (Sh)</th><th>TSI (Sh)</th></tr>" +
      (a.players || []).map(p => `<tr><td>${p.player}</td><td>${sh(p.msi)}</td><td>${sh(p.tsi)}</td></tr>`).join("");
    wit.paths = s.paths || [];
    wit.complete = s.complete;
    $("wit-message").textContent = a.stopped ? "the analysis ran out of time: unknown" : "";
    showSolution(wit.paths.length ? 0 : -1);
  } catch (e) {
    if (seq === wit.seq) $("wit-message").textContent = e.message;
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

$("wit-new").addEventListener("click", () => {
  wit.w = clamp(Number($("wit-width").value) || 4, 1, 8);
  wit.h = clamp(Number($("wit-height").value) || 4, 1, 8);
  wit.start = [0, wit.h]; wit.goal = [wit.w, 0];
  wit.tri = new Map(); wit.holes = new Set();
  witChanged();
});

$("wit-export").addEventListener("click", () => download("studio-witness.ron", `[\n    ${ron()},\n]\n`));

$("wit-generate").addEventListener("click", async () => {
  const at = [...wit.holes].map(k => k.split(",").map(Number));
  const list = $("wit-variants");
  if (!at.length) { list.innerHTML = "<li>mark placeholder squares first (palette: placeholder)</li>"; return; }
  list.innerHTML = "<li>generating...</li>";
  try {
    const made = await api("/api/witness/generate", { puzzle: ron(), at, order: $("wit-order").value, top: 20 });
    if (!Array.isArray(made)) throw new Error("generation ran out of time");
    list.innerHTML = made.length ? "" : "<li>no solvable variant</li>";
    for (const m of made) {
      const li = document.createElement("li");
      const tsi = m.players.map(p => `${p.player === "local" ? "local" : "rules"} TSI ${sh(p.tsi)}`).join(", ");
      li.textContent = `${m.origin}: score ${sh(m.score)}, ${m.solutions} solutions; ${tsi}`;
      li.addEventListener("click", () => loadRon(m.puzzle));
      list.appendChild(li);
    }
  } catch (e) { list.innerHTML = `<li>${e.message}</li>`; }
});

witChanged();
