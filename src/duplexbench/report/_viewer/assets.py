"""The viewer page's inline CSS and JavaScript (no external resources).

The script only reads the JSON data block and the rendered DOM: it draws the
waveform from the precomputed peaks, moves the cursor with playback, seeks on
clicks and filters the timeline. Text from the data block reaches the page
through `textContent` and the canvas only, never as markup.
"""

from __future__ import annotations

from duplexbench.report._viewer.timeline_rows import GROUPS

_GROUP_CSS = "".join(f"#timeline.hide-{key} tr.g-{key}{{display:none}}" for key, _ in GROUPS)

CSS = (
    """
*{box-sizing:border-box}
body{margin:0;font:13px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#0f172a;
  background:#f1f5f9}
main{max-width:1400px;margin:0 auto;padding:12px 18px 40px}
h1{font-size:20px;margin:0 0 2px}
h2{font-size:15px;margin:18px 0 6px}
h3{font-size:13px;margin:12px 0 4px}
code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace}
header{background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:12px 16px}
.sub{color:#475569;margin-bottom:8px}
.meta{display:flex;flex-wrap:wrap;gap:4px 18px;margin:0}
.meta div{display:flex;gap:6px}
.meta dt{color:#64748b}
.meta dd{margin:0;font-weight:600}
.verdict{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin-top:10px}
.chip{display:inline-block;padding:1px 8px;border-radius:10px;background:#e2e8f0;font-weight:600}
.chip.pass{background:#dcfce7;color:#166534}
.chip.fail{background:#fee2e2;color:#991b1b}
.chip.big{font-size:15px;padding:2px 12px}
.notes{background:#fffbeb;border:1px solid #fcd34d;border-radius:8px;padding:6px 14px;
  margin-top:10px}
.notes li{margin:2px 0}
.error{background:#fef2f2;border:1px solid #fca5a5;border-radius:6px;padding:6px 10px;
  margin-top:8px;white-space:pre-wrap}
#audio-panel{position:sticky;top:0;z-index:5;background:#fff;border:1px solid #e2e8f0;
  border-radius:8px;padding:8px 12px;margin-top:10px;box-shadow:0 2px 6px rgba(15,23,42,.06)}
.players{display:flex;gap:10px;align-items:center}
.players audio{height:32px;flex:1}
#wave-box{position:relative;margin-top:6px;cursor:crosshair}
#wave{display:block;width:100%}
#cursor{position:absolute;top:0;bottom:18px;width:2px;margin-left:-1px;background:#dc2626;
  pointer-events:none;left:0}
.legend{display:flex;flex-wrap:wrap;gap:12px;color:#475569;font-size:12px;margin-top:2px}
.sw{display:inline-block;width:12px;height:10px;border-radius:2px;margin-right:4px;
  vertical-align:-1px}
#captions{display:grid;grid-template-columns:1fr 1fr;gap:8px;margin-top:4px;font-size:12.5px}
.cap{min-height:1.5em;color:#334155;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.cap b{margin-right:6px}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:4px 14px 12px;
  margin-top:12px}
table{border-collapse:collapse;width:100%}
th{text-align:left;color:#475569;font-weight:600;border-bottom:1px solid #cbd5e1;padding:3px 6px}
td{padding:2px 6px;border-bottom:1px solid #f1f5f9;vertical-align:top}
.grid td{font:12px ui-monospace,SFMono-Regular,Menlo,monospace}
tr.ok td.mark{color:#15803d}
tr.bad{background:#fef2f2}
tr.bad td.mark{color:#b91c1c}
.filters{display:flex;flex-wrap:wrap;gap:4px 14px;align-items:center;margin:4px 0 8px}
.filters label{white-space:nowrap;cursor:pointer}
.filters input[type=search]{padding:3px 6px;border:1px solid #cbd5e1;border-radius:4px;
  width:220px}
#timeline{font-size:12.5px}
#timeline tbody tr{cursor:pointer}
#timeline tbody tr:hover{background:#f8fafc}
#timeline tbody tr.now{background:#fef08a}
#timeline tr.nomatch{display:none}
#timeline td:nth-child(1){font:12px ui-monospace,monospace;color:#475569;white-space:nowrap}
#timeline td:nth-child(2){font-weight:600;white-space:nowrap}
#timeline td:nth-child(3){font:12px ui-monospace,monospace;white-space:nowrap}
#timeline td:nth-child(4){word-break:break-word}
.cap b.a-user,tr.a-user td:nth-child(2){color:#1d4ed8}
.cap b.a-agent,tr.a-agent td:nth-child(2){color:#b45309}
tr.a-workbench td:nth-child(2){color:#047857}
tr.a-harness td:nth-child(2){color:#64748b}
.dim{color:#64748b}
.strong{font-weight:600}
span.good{color:#15803d;font-weight:600}
span.bad,li.bad{color:#b91c1c;font-weight:600}
.tag{font-size:11px;background:#e0e7ff;color:#3730a3;border-radius:3px;padding:0 4px}
.old{color:#b91c1c;text-decoration:line-through;font-family:ui-monospace,monospace}
.new{color:#15803d;font-family:ui-monospace,monospace}
details{display:inline-block;margin-left:6px}
details summary{color:#2563eb;cursor:pointer;font-size:11px}
details pre{white-space:pre-wrap;margin:2px 0;font-size:11px;background:#f8fafc;padding:4px;
  max-width:900px}
"""
    + _GROUP_CSS
)

JS = r"""
(() => {
  "use strict";
  const data = JSON.parse(document.getElementById("viewer-data").textContent);
  const players = Array.from(document.querySelectorAll("audio.player"));
  let player = players[0] || null;
  const canvas = document.getElementById("wave");
  const cursor = document.getElementById("cursor");
  const table = document.getElementById("timeline");
  const rows = Array.from(table.tBodies[0].rows);
  const rowSeek = rows.map((r) => Number(r.dataset.t));
  // floor and effect events are stamped after the fact: they only highlight when clicked
  const live = rows.map((r) => !/\bg-(floor|effect)\b/.test(r.className));
  const dur = Math.max(1, data.duration_ms);
  const LANE = 54, GAP = 6, AXIS = 18;
  const INK = {user: "#2563eb", agent: "#d97706", line: "#475569"};
  const SPAN = {user: "rgba(37,99,235,.15)", agent: "rgba(217,119,6,.18)"};
  const fmt = (ms) => {
    const s = Math.max(0, Math.round(ms / 1000));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  };

  function band(g, spans, top, height, x) {
    for (const sp of spans) g.fillRect(x(sp[1]), top, Math.max(1, x(sp[2]) - x(sp[1])), height);
  }

  function lane(g, ln, top, w, x) {
    g.fillStyle = "#f8fafc";
    g.fillRect(0, top, w, LANE);
    const key = ln.key === "line" ? "user" : ln.key;
    g.fillStyle = SPAN[key] || SPAN.user;
    band(g, data.spans.filter((s) => s[0] === key), top, LANE, x);
    g.fillStyle = "rgba(220,38,38,.16)";
    band(g, data.overlaps.map((o) => ["", o[0], o[1]]), top, LANE, x);
    g.fillStyle = INK[ln.key] || INK.line;
    const p = ln.peaks, per = (ln.pps * dur) / 1000 / w, mid = top + LANE / 2;
    for (let px = 0; px < w; px++) {
      const i0 = Math.floor(px * per), i1 = Math.max(i0 + 1, Math.floor((px + 1) * per));
      let v = 0;
      for (let j = i0; j < i1 && j < p.length; j++) if (p[j] > v) v = p[j];
      const h = (v / 99) * (LANE / 2 - 2);
      if (h > 0.3) g.fillRect(px, mid - h, 1, 2 * h);
    }
    g.font = "11px system-ui, sans-serif";
    g.fillStyle = "rgba(255,255,255,.85)";
    g.fillRect(0, top, g.measureText(ln.label).width + 8, 15);
    g.fillStyle = "#334155";
    g.fillText(ln.label, 4, top + 11);
  }

  function effects(g, top, x) {
    for (const fx of data.effects) {
      const own = Object.prototype.hasOwnProperty.call(data.fx_colors, fx[2]);
      g.fillStyle = own ? data.fx_colors[fx[2]] : data.fx_colors[""];
      const h = fx[1] - fx[0] > dur / 2 ? 3 : 6;
      g.fillRect(x(fx[0]), top + LANE - h, Math.max(1, x(fx[1]) - x(fx[0])), h);
    }
  }

  function axis(g, top, w) {
    const steps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1200];
    const step = (steps.find((s) => (s * 1000 * w) / dur >= 70) || 1800) * 1000;
    g.fillStyle = "#64748b";
    g.font = "10px system-ui, sans-serif";
    for (let t = 0; t <= dur; t += step) {
      const px = (t / dur) * w;
      g.fillRect(px, top, 1, 4);
      g.fillText(fmt(t), Math.min(px + 2, w - 28), top + 14);
    }
  }

  function draw() {
    if (!canvas) return;
    const w = Math.max(100, canvas.clientWidth), n = data.lanes.length;
    const h = n * (LANE + GAP) + AXIS, dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(w * dpr);
    canvas.height = Math.round(h * dpr);
    canvas.style.height = h + "px";
    const g = canvas.getContext("2d");
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, w, h);
    const x = (ms) => (ms / dur) * w;
    data.lanes.forEach((ln, i) => lane(g, ln, i * (LANE + GAP), w, x));
    const fxLane = Math.max(0, data.lanes.findIndex((ln) => ln.key === "line"));
    effects(g, fxLane * (LANE + GAP), x);
    axis(g, n * (LANE + GAP), w);
    update();
  }

  const caps = Array.from(document.querySelectorAll("#captions .cap"));
  function captions(ms) {
    for (const el of caps) {
      const key = el.dataset.key;
      const hit = data.captions.find((c) => c[0] === key && c[1] <= ms && ms < c[2] + 300);
      const text = hit ? hit[3] : "";
      const span = el.querySelector("span");
      if (span.textContent !== text) span.textContent = text;
    }
  }

  let current = null, pinned = -1;
  const follow = document.getElementById("follow");
  function highlight(ms) {
    // the row of what started last before `ms` (ties: the clicked row, else the later row)
    let best = -1;
    const better = (i) => rowSeek[i] <= ms + 1 && (best < 0 || rowSeek[i] >= rowSeek[best]);
    for (let i = 0; i < rows.length; i++) if (live[i] && better(i)) best = i;
    if (pinned >= 0 && better(pinned)) best = pinned;
    const row = best >= 0 ? rows[best] : null;
    if (row === current) return;
    if (current) current.classList.remove("now");
    current = row;
    if (!row) return;
    row.classList.add("now");
    if (follow && follow.checked) row.scrollIntoView({block: "center"});
  }

  function update() {
    const ms = player ? player.currentTime * 1000 : 0;
    if (canvas && cursor) cursor.style.left = (ms / dur) * canvas.clientWidth + "px";
    captions(ms);
    if (player) highlight(ms);
  }

  function seek(ms) {
    if (!player) return;
    player.currentTime = ms / 1000;
    update();
  }

  function loop() {
    update();
    if (player && !player.paused) requestAnimationFrame(loop);
  }

  for (const p of players) {
    p.addEventListener("timeupdate", () => { if (p === player) update(); });
    p.addEventListener("seeked", () => { if (p === player) update(); });
    p.addEventListener("play", () => { if (p === player) requestAnimationFrame(loop); });
  }
  const source = document.getElementById("source");
  if (source) source.addEventListener("change", () => {
    const t = player.currentTime, playing = !player.paused;
    player.pause();
    player.hidden = true;
    player = players[Number(source.value)];
    player.hidden = false;
    player.currentTime = t;
    if (playing) player.play();
    update();
  });
  if (canvas) canvas.addEventListener("click", (e) => {
    const r = canvas.getBoundingClientRect();
    seek(((e.clientX - r.left) / r.width) * dur);
  });
  table.tBodies[0].addEventListener("click", (e) => {
    if (e.target.closest("details")) return;
    const tr = e.target.closest("tr");
    if (!tr) return;
    pinned = rows.indexOf(tr);
    seek(Number(tr.dataset.t));
  });
  for (const box of document.querySelectorAll("input[data-group]")) {
    box.addEventListener("change", () => {
      table.classList.toggle("hide-" + box.dataset.group, !box.checked);
    });
  }
  const search = document.getElementById("search");
  let texts = null;
  search.addEventListener("input", () => {
    const q = search.value.trim().toLowerCase();
    texts = texts || rows.map((r) => r.textContent.toLowerCase());
    rows.forEach((r, i) => r.classList.toggle("nomatch", q !== "" && !texts[i].includes(q)));
  });
  window.addEventListener("resize", draw);
  draw();
  update();
  document.body.dataset.ready = "1";
})();
"""
