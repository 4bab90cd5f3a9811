// The studio's shared helpers: the API call, downloads, tabs.
"use strict";

// POSTs `body` (an object, or raw bytes) to the API; resolves to the JSON
// answer, rejects with the server's message.
async function api(path, body) {
  const raw = body instanceof ArrayBuffer;
  const res = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": raw ? "application/octet-stream" : "application/json" },
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
