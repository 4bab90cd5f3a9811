// The studio's shared helpers: the API call, downloads, tabs, and each
// panel's file tools built from one template.
"use strict";

// The token the server asks when it serves beyond this machine (empty on
// loopback), given in the page it served.
const TOKEN = document.querySelector('meta[name="studio-token"]').content;

// POSTs `body` (an object, or raw bytes) to the API; resolves to the JSON
// answer, rejects with the server's message.
async function api(path, body) {
  const raw = body instanceof ArrayBuffer;
  const headers = { "Content-Type": raw ? "application/octet-stream" : "application/json" };
  if (TOKEN) headers["X-Studio-Token"] = TOKEN;
  const res = await fetch(path, {
    method: "POST",
    headers,
    body: raw ? body : JSON.stringify(body),
  });
  const answer = await res.json();
  if (!res.ok) throw new Error(answer.error || res.statusText);
  return answer;
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
