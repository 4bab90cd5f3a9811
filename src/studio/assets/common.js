// The studio's shared helpers: the API call, a panel's analysis asked
// live then in full, downloads, tabs, each
// panel's file tools and editing tools built from two templates, the rule
// sets named in the header, and the undo history both
// panels keep (Ctrl+Z / Ctrl+Shift+Z and their buttons).
"use strict";

// The token the server asks when it serves beyond this machine (empty on
// loopback), given in the page it served.
const TOKEN = document.querySelector('meta[name="studio-token"]').content;

// POSTs `body` (an object, or raw bytes) to the API; resolves to the JSON
// answer, rejects with the server's message (or an AbortError once
// `signal`, if given, is aborted: the request is cancelled).
async function api(path, body, signal) {
  const raw = body instanceof ArrayBuffer;
  const headers = { "Content-Type": raw ? "application/octet-stream" : "application/json" };
  if (TOKEN) headers["X-Studio-Token"] = TOKEN;
  const res = await fetch(path, {
    method: "POST",
    headers,
    body: raw ? body : JSON.stringify(body),
    signal,
  });
  const answer = await res.json();
  if (!res.ok) throw new Error(answer.error || res.statusText);
  return answer;
}

// The live answer's budget: what is not done within it is `unknown`, and
// asked again with the server's budget.
const LIVE_MS = 100;

// Whether an analysis left something unknown (the count or a difficulty).
function unfinished(a) { return a.solutions === null || Boolean(a.difficulty_stopped); }

// A panel's analysis after a change: `path` asked for `body` within
// LIVE_MS and the answer shown (`show`); if it left something unknown,
// asked again with the server's budget and shown again. The element
// `timing` says how long each took. Rejects as `api` does (an AbortError
// once `signal` is aborted: the figures asked are stale).
async function analyseLiveThenFull(path, body, signal, show, timing) {
  let started = performance.now();
  let a = await api(`${path}?budget_ms=${LIVE_MS}`, body, signal);
  const answered = `answered in ${Math.round(performance.now() - started)} ms (budget ${LIVE_MS} ms)`;
  show(a, true);
  if (!unfinished(a)) { timing.textContent = answered; return; }
  const partial = `${answered} with ${a.solutions === null ? "the count" : "the difficulty"} unknown`;
  timing.textContent = `${partial}; measuring with the server's budget...`;
  started = performance.now();
  a = await api(path, body, signal);
  show(a, false);
  const full = Math.round(performance.now() - started);
  timing.textContent = unfinished(a)
    ? `${partial}; with the server's budget (${full} ms) still unknown`
    : `${partial}; measured in full in ${full} ms with the server's budget`;
}

// Offers `text` as a file `name` to save.
function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

function $(id) { return document.getElementById(id); }

function clamp(v, lo, hi) { return Math.max(lo, Math.min(hi, v)); }

// The tabs switch panels.
for (const tab of document.querySelectorAll(".tab")) {
  tab.addEventListener("click", () => {
    for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t === tab);
    for (const p of document.querySelectorAll(".panel")) p.classList.toggle("hidden", p.id !== "panel-" + tab.dataset.panel);
  });
}

// Each panel's file tools from the one template: a bar with
// data-file-tools="P" gets inputs P-width and P-height (1 to data-max,
// data-size "W,H" at first), buttons P-new and P-export and a file input
// P-open, worded and filtered by its data-new, data-open, data-accept and
// data-export.
for (const bar of document.querySelectorAll("[data-file-tools]")) {
  const d = bar.dataset, tools = $("file-tools").content.cloneNode(true);
  const part = role => tools.querySelector(`[data-role=${role}]`);
  for (const el of tools.querySelectorAll("[data-role]")) el.id = `${d.fileTools}-${el.dataset.role}`;
  const [w, h] = d.size.split(",");
  for (const [role, value] of [["width", w], ["height", h]]) {
    part(role).max = d.max;
    part(role).value = value;
  }
  part("new").textContent = d.new;
  part("open-label").textContent = d.open;
  part("open").accept = d.accept;
  part("export").textContent = d.export;
  bar.prepend(tools);
}

// Each panel's editing tools from one template: a bar with
// data-edit-tools="P" gets buttons P-undo, P-redo, P-resize (its title
// says the width and height given are taken, then data-kept),
// P-shift-left, -right, -up, -down, P-flip-h and P-flip-v.
for (const bar of document.querySelectorAll("[data-edit-tools]")) {
  const d = bar.dataset, tools = $("edit-tools").content.cloneNode(true);
  for (const el of tools.querySelectorAll("[data-role]")) el.id = `${d.editTools}-${el.dataset.role}`;
  tools.querySelector("[data-role=resize]").title = `to the width and height given, ${d.kept}`;
  bar.prepend(tools);
}

// The rule sets the players use, named in the page's header as the
// answers name them: `nameRules("nonogram", file)`.
const RULES = {};
function nameRules(domain, file) {
  if (!file || RULES[domain] === file) return;
  RULES[domain] = file;
  $("rules-note").textContent = "rules: " + Object.entries(RULES).map(([d, f]) => `${d} ${f}`).join(", ");
}
// Every set named as the page opens, before any panel has asked.
api("/api/rules", {}).then(sets => { for (const [domain, file] of Object.entries(sets)) nameRules(domain, file); })
  .catch(() => {});

// A panel's undo history: the states before each change (`past`) and
// those undone (`future`); a new change forgets what was undone.
class History {
  constructor(limit = 500) { this.past = []; this.future = []; this.limit = limit; }

  // Keeps `state`, the one before a change.
  record(state) {
    this.past.push(state);
    if (this.past.length > this.limit) this.past.shift();
    this.future = [];
  }

  // The state to go back to from `current` (null if none).
  undo(current) {
    if (!this.past.length) return null;
    this.future.push(current);
    return this.past.pop();
  }

  // The state undone last, to go to from `current` again (null if none).
  redo(current) {
    if (!this.future.length) return null;
    this.past.push(current);
    return this.future.pop();
  }
}

// Each panel's undo and redo, by panel name (filled in by the panels).
const UNDO = {};

// Ctrl+Z undoes in the panel shown, Ctrl+Shift+Z (or Ctrl+Y) redoes;
// not while typing in a text or number box (its own undo).
window.addEventListener("keydown", e => {
  if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
  const k = e.key.toLowerCase();
  if (k !== "z" && k !== "y") return;
  const t = e.target;
  if (t && (t.tagName === "TEXTAREA" || (t.tagName === "INPUT" && !["checkbox", "radio", "file"].includes(t.type)))) return;
  const shown = document.querySelector(".tab.active").dataset.panel;
  if (!UNDO[shown]) return;
  e.preventDefault();
  if (k === "z" && !e.shiftKey) UNDO[shown].undo(); else UNDO[shown].redo();
});
