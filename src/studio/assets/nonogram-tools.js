// The nonogram panel's tools over the picture (nonogram.js): hints
// stepping through the explanation (buttons, first and last step,
// PageUp/PageDown/Home/End on the board), the owners of blocks where they
// are certain (on request), repairs shown before they are applied, random
// puzzles, opening a picture or a clue-only `.non`, and export with its
// title and author.
"use strict";

const tools = { hint: null, repairs: [] };

// Hints: the explanation's steps, one at a time, on the board.
$("nono-hint").addEventListener("click", async () => {
  if (tools.hint) return showStep(Math.min(tools.hint.k + 1, tools.hint.steps.length - 1));
  try {
    const asked = request(), steps = await api("/api/nonogram/explain", asked);
    if (stale(asked)) return;
    if (!Array.isArray(steps)) throw new Error("the explanation ran out of time");
    if (!steps.length) throw new Error("nothing to explain: the picture is empty");
    tools.hint = { steps, k: 0 };
    $("nono-board").classList.add("hinting");
    showStep(0);
  } catch (e) { $("nono-message").textContent = e.message; }
});

// Whether the picture changed since `asked` (a request) was sent: its
// answer is then of a picture gone, and dropped.
function stale(asked) {
  return asked.width !== nono.w || asked.height !== nono.h || asked.goal !== goal();
}

// Steps to step k of the hint (clamped), if a hint is shown.
function stepTo(k) { if (tools.hint) showStep(clamp(k, 0, tools.hint.steps.length - 1)); }

$("nono-first").addEventListener("click", () => stepTo(0));
$("nono-back").addEventListener("click", () => tools.hint && stepTo(tools.hint.k - 1));
$("nono-forward").addEventListener("click", () => tools.hint && stepTo(tools.hint.k + 1));
$("nono-last").addEventListener("click", () => tools.hint && stepTo(tools.hint.steps.length - 1));
$("nono-close-hint").addEventListener("click", closeHint);
$("nono-board").addEventListener("keydown", e => {
  if (!tools.hint) return;
  const to = { PageUp: tools.hint.k - 1, PageDown: tools.hint.k + 1, Home: 0, End: tools.hint.steps.length - 1 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  stepTo(to);
});

// The cells known after step k of the hint: "#" filled, "x" crossed out,
// "." unknown, row by row.
function knownAt(k) {
  const known = new Array(nono.w * nono.h).fill(".");
  for (let i = 0; i <= k; i++) {
    for (const c of tools.hint.steps[i].cells) known[(c.row - 1) * nono.w + c.column - 1] = c.filled ? "#" : "x";
  }
  return known.join("");
}

function showStep(k) {
  tools.hint.k = k;
  clearMarks("known-on", "known-off", "now");
  const { steps } = tools.hint;
  for (let i = 0; i <= k; i++) {
    for (const c of steps[i].cells) {
      const td = $(cellId(c.row - 1, c.column - 1));
      td.classList.add(c.filled ? "known-on" : "known-off");
      if (i === k) td.classList.add("now");
    }
  }
  const s = steps[k];
  const who = s.how === "rule" ? `rule <span class="rule">${escapeHtml(s.rule)}</span>` : `the complete solver's ${s.how}`;
  $("nono-step").innerHTML = `<div>step ${k + 1} of ${steps.length}: ${who}</div>` +
    (s.description ? `<div class="desc">${escapeHtml(s.description)}</div>` : "") +
    `<div>${escapeHtml(s.heading)}</div>` + s.notes.map(n => `<div>${escapeHtml(n)}</div>`).join("");
  $("nono-first").disabled = $("nono-back").disabled = k === 0;
  $("nono-forward").disabled = $("nono-last").disabled = k === steps.length - 1;
  $("nono-close-hint").disabled = false;
  showOwners();
}

function closeHint() {
  tools.hint = null;
  $("nono-board").classList.remove("hinting");
  clearMarks("known-on", "known-off", "now");
  $("nono-step").innerHTML = "";
  for (const id of ["nono-first", "nono-back", "nono-forward", "nono-last", "nono-close-hint"]) $(id).disabled = true;
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"]/g, ch => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]);
}

// Owners: with "show owners" on, each block of the cells known (the hint's
// step, else the whole picture) whose hint is certain (first_owner =
// last_owner) is outlined and its hint number in the clue marked; a
// cell's title says whose it is.
let ownersAsked = null;
async function showOwners() {
  clearOwners();
  if (!$("nono-owners").checked) return;
  if (ownersAsked) ownersAsked.abort();
  const asked = ownersAsked = new AbortController();
  const known = tools.hint ? knownAt(tools.hint.k) : nono.cells.map(v => (v ? "#" : "x")).join("");
  try {
    const a = await api("/api/nonogram/owners", { puzzle: request(), known }, asked.signal);
    for (const line of a.lines) {
      const row = line.axis === "row", i = line.index - 1;
      for (const b of line.blocks) {
        if (b.first_owner !== b.last_owner) continue;
        $(`${row ? "row" : "col"}hint-${i}-${b.first_owner}`).classList.add("owned");
        for (let j = b.start; j < b.start + b.size; j++) {
          const td = $(row ? cellId(i, j) : cellId(j, i));
          td.classList.add("owned");
          const hint = (row ? runs(rowOf(i)) : runs(colOf(i)))[b.first_owner];
          td.title = (td.title ? td.title + "; " : "") +
            `${line.axis} ${i + 1}: part of the ${hint} (hint ${b.first_owner + 1})`;
        }
      }
    }
  } catch (e) {
    if (!asked.signal.aborted) $("nono-message").textContent = e.message;
  }
}

function clearOwners() {
  clearMarks("owned");
  for (const td of document.querySelectorAll("#nono-board td.cell[title]")) td.removeAttribute("title");
  for (const s of document.querySelectorAll("#nono-board span.hint.owned")) s.classList.remove("owned");
}

$("nono-owners").addEventListener("change", showOwners);

// Repairs (for the player, or with "unique only" for uniqueness alone):
// proposals listed; hovering shows the changed cells, Apply applies one.
$("nono-repair").addEventListener("click", async () => {
  $("repair-list").innerHTML = "<li>searching...</li>";
  try {
    // unique only: any guessing allowed, and the time a 25x25 takes
    const unique = $("nono-repair-unique").checked, asked = request();
    const r = await api(unique ? "/api/nonogram/repair?budget_ms=60000" : "/api/nonogram/repair",
      { ...asked, player: $("nono-player").value, ...(unique ? { bits: "0..1000" } : {}) });
    if (stale(asked)) return;
    if (r.stopped) throw new Error("the repair search ran out of time");
    tools.repairs = r.puzzles || [];
    const list = $("repair-list");
    list.innerHTML = "";
    if (!tools.repairs.length) list.innerHTML = `<li>${escapeHtml(r.summary)}</li>`;
    tools.repairs.forEach((m, i) => {
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
  for (const c of m.changed) $(cellId(c.row - 1, c.column - 1)).classList.add(c.black ? "plus" : "minus");
}

$("repair-list").addEventListener("click", e => {
  const b = e.target.closest("button.repair-apply");
  if (!b) return;
  const m = tools.repairs[Number(b.dataset.i)];
  clearMarks("plus", "minus");
  setPicture(nono.w, nono.h, cellsOf(m.goal));
});

// The old picture's hint, owners and repairs go with it.
onPictureChange.push(() => {
  closeHint();
  clearOwners();
  tools.repairs = [];
  $("repair-list").innerHTML = "";
  $("nono-note").textContent = "";
});
// The owners shown follow the picture.
onPictureChange.push(() => { if ($("nono-owners").checked) showOwners(); });

function cellsOf(text) { return Array.from(text).map(ch => ch === "1"); }

$("nono-random").addEventListener("click", async () => {
  const w = side("nono-width"), h = side("nono-height");
  if (!w || !h) return;
  const bits = Math.max(0, Number($("nono-bits").value) || 0);
  $("nono-message").textContent = "looking for a random puzzle...";
  try {
    const r = await api("/api/nonogram/random", { width: w, height: h, player: $("nono-player").value,
      bits: "0.." + bits, seed: Math.floor(Math.random() * 1e9) });
    if (!r.puzzles || !r.puzzles.length) throw new Error(r.summary || "no puzzle found within the budget; try again");
    const m = r.puzzles[0];
    setPicture(m.width, m.height, cellsOf(m.goal));
    setTitle(m.title, "");
    $("nono-message").textContent = "";
  } catch (e) { $("nono-message").textContent = e.message; }
});

// The title and author shown (and exported).
function setTitle(title, author) {
  $("nono-title").value = nono.title = title || "";
  $("nono-author").value = nono.author = author || "";
}
$("nono-title").addEventListener("input", e => { nono.title = e.target.value; });
$("nono-author").addEventListener("input", e => { nono.author = e.target.value; });

// Open: a picture (a `.non` with a goal, PBM, PNG) is painted; a clue-only
// `.non` shows its solution when it has one (the only one, or one of
// several, said so).
$("nono-open").addEventListener("change", async e => {
  const file = e.target.files[0];
  if (!file) return;
  try {
    const p = await api("/api/nonogram/open", await file.arrayBuffer());
    if (p.width > NONO_MAX || p.height > NONO_MAX) throw new Error(`${p.width}x${p.height}: the studio paints up to ${NONO_MAX}x${NONO_MAX}`);
    if (p.goal === undefined) throw new Error(cluesOnly(p));
    setPicture(p.width, p.height, cellsOf(p.goal));
    setTitle(p.title || file.name, p.author);
    $("nono-note").textContent = p.solutions === undefined ? "" : cluesOnly(p);
  } catch (err) {
    $("nono-message").textContent = file.name + ": " + err.message;
  }
  e.target.value = "";
});

// What a clue-only file's answer says of its solutions.
function cluesOnly(p) {
  if (p.solutions === 1) return "a clue-only file: its one solution is shown";
  if (p.solutions === 2) return "a clue-only file with two or more solutions: one of them is shown";
  if (p.solutions === 0) return "a clue-only file whose clues have no solution";
  return `a clue-only file: no solution found within the budget (${p.stopped})`;
}

$("nono-export").addEventListener("click", async () => {
  try {
    const r = await api("/api/nonogram/export", { ...request(), title: nono.title || "studio picture",
      ...(nono.author ? { author: nono.author } : {}) });
    download((nono.title || "studio").replace(/[^A-Za-z0-9_-]+/g, "-") + ".non", r.non);
  } catch (e) { $("nono-message").textContent = e.message; }
});

closeHint();
