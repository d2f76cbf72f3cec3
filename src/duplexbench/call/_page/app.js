// The live caller page: one WebSocket to duplexbench carries the call.
// Text frames from the server are JSON messages rendered into the page, always
// as text (textContent, never markup); binary frames are the agent's voice,
// played through the `agent-player` worklet. The microphone goes back through
// the `mic-capture` worklet as int16 frames (open mic: always; push to talk:
// while the Talk button or the Space bar is held).

const $ = (id) => document.getElementById(id);
const ui = {
  title: $("title"), progress: $("progress"), status: $("status"), error: $("error"),
  start: $("start"), end: $("end"), modeOpen: $("mode-open"), modePtt: $("mode-ptt"),
  talk: $("talk"), level: $("mic-level"), card: $("card"), transcript: $("transcript"),
  artifact: $("artifact"), ended: $("ended"),
};

const STATES = { ready: "Ready", connecting: "Connecting", live: "Live", ended: "Ended" };
const WHERE = { agent: "Agent", microphone: "Microphone", connection: "Connection", harness: "Harness" };
const LINE_STATES = { now: "Now", known: "Known", done: "Done", later: "Later" };
const LINE_KINDS = { fact: "Fact", event: "Event", approval: "Approval", note: "Note" };
const MIC = { echoCancellation: true, noiseSuppression: false, autoGainControl: false };

const call = { mode: "open", talking: false, lost: false, audio: null, lines: new Map() };

// ---- small helpers: every server value becomes plain text ----

const str = (v) => (typeof v === "string" ? v : v === null || v === undefined ? "" : String(v));
const list = (v) => (Array.isArray(v) ? v : []);
const record = (v) => (v !== null && typeof v === "object" && !Array.isArray(v) ? v : {});
const pick = (table, key, fallback) => (Object.hasOwn(table, key) ? key : fallback);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function clock(ms) {
  const seconds = Math.max(0, Math.floor(Number(ms) / 1000) || 0);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

// ---- the socket ----

const token = new URLSearchParams(location.search).get("token") || "";
const scheme = location.protocol === "https:" ? "wss" : "ws";
const socket = new WebSocket(`${scheme}://${location.host}/ws?token=${encodeURIComponent(token)}`);
socket.binaryType = "arraybuffer";

function send(message) {
  if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

socket.addEventListener("open", () => {
  ui.start.disabled = false;
  ui.status.textContent = "Connected to duplexbench";
  setUpAudio().catch(micFailed);
});

socket.addEventListener("close", () => {
  call.lost = true;
  stopTalking(false);
  for (const button of [ui.start, ui.end, ui.talk]) button.disabled = true;
  showError("connection", "connection to duplexbench lost");
  ui.status.dataset.state = "lost";
  ui.status.textContent = "Disconnected";
});

socket.addEventListener("message", (event) => {
  if (typeof event.data !== "string") {
    play(event.data);
    return;
  }
  let message;
  try {
    message = JSON.parse(event.data);
  } catch {
    return;
  }
  const handler = HANDLERS.get(record(message).type);
  if (handler) handler(message);
});

// ---- audio: the agent's voice out, the microphone in ----

async function setUpAudio() {
  const ctx = new AudioContext();
  await ctx.audioWorklet.addModule("audio-worklet.js");
  const player = new AudioWorkletNode(ctx, "agent-player", {
    numberOfInputs: 0, outputChannelCount: [1],
  });
  player.connect(ctx.destination);
  call.audio = { ctx, player };
  if (!navigator.mediaDevices) throw new Error("no microphone here: open the link as printed");
  const stream = await navigator.mediaDevices.getUserMedia({ audio: MIC });
  const capture = new AudioWorkletNode(ctx, "mic-capture", {
    numberOfOutputs: 0, channelCount: 1, channelCountMode: "explicit",
    processorOptions: { chunk: Math.round(ctx.sampleRate / 50) },
  });
  capture.port.onmessage = (event) => heard(event.data);
  ctx.createMediaStreamSource(stream).connect(capture);
  send({ type: "hello", sample_rate: Math.round(ctx.sampleRate) });
}

function micFailed(err) {
  const why = err && err.name ? `${err.name}: ${err.message}` : "no microphone available";
  send({ type: "mic_error", message: why });
  showError("microphone", `the microphone cannot be used (${why})`);
}

function resumeAudio() {
  if (call.audio && call.audio.ctx.state === "suspended") call.audio.ctx.resume();
}

function play(buffer) {
  if (call.audio) call.audio.player.port.postMessage(buffer, [buffer]);
}

function heard({ pcm, level }) {
  ui.level.value = level;
  const open = call.mode === "open" || call.talking;
  if (open && !call.lost && socket.readyState === WebSocket.OPEN) socket.send(pcm);
}

// ---- controls ----

function startTalking() {
  if (call.talking || call.mode !== "ptt" || call.lost) return;
  resumeAudio();
  call.talking = true;
  ui.talk.setAttribute("aria-pressed", "true");
  send({ type: "talk", open: true });
}

function stopTalking(tell = true) {
  if (!call.talking) return;
  call.talking = false;
  ui.talk.setAttribute("aria-pressed", "false");
  if (tell) send({ type: "talk", open: false });
}

function setMode(mode) {
  call.mode = mode;
  stopTalking();
  ui.talk.disabled = mode !== "ptt" || call.lost;
}

const isSpace = (event) => event.code === "Space" && call.mode === "ptt";

ui.start.addEventListener("click", () => {
  resumeAudio();
  send({ type: "start" });
  ui.start.disabled = true;
  ui.end.disabled = false;
});
ui.end.addEventListener("click", () => {
  send({ type: "end" });
  ui.end.disabled = true;
});
ui.modeOpen.addEventListener("change", () => setMode("open"));
ui.modePtt.addEventListener("change", () => setMode("ptt"));
ui.talk.addEventListener("pointerdown", (event) => {
  ui.talk.setPointerCapture(event.pointerId);
  startTalking();
});
for (const type of ["pointerup", "pointercancel", "lostpointercapture"]) {
  ui.talk.addEventListener(type, () => stopTalking());
}
document.addEventListener("keydown", (event) => {
  if (!isSpace(event)) return;
  event.preventDefault();
  if (!event.repeat) startTalking();
});
document.addEventListener("keyup", (event) => {
  if (!isSpace(event)) return;
  event.preventDefault();
  stopTalking();
});
window.addEventListener("blur", () => stopTalking());
document.addEventListener("pointerdown", resumeAudio, true);

// ---- what the server says ----

function showError(where, message) {
  ui.error.replaceChildren(el("strong", "", `${WHERE[pick(WHERE, where, "harness")]}: `));
  ui.error.append(message);
  ui.error.hidden = false;
}

function onItem(message) {
  const title = str(message.title);
  ui.title.textContent = title;
  document.title = `${title} · duplexbench`;
  ui.progress.textContent = `call ${str(message.index)} of ${str(message.total)}`;
  call.lines.clear();
  ui.transcript.replaceChildren();
  ui.card.replaceChildren();
  ui.artifact.replaceChildren();
  ui.ended.hidden = true;
  ui.error.hidden = true;
}

function onStatus(message) {
  const text = str(message.message);
  if (!Object.hasOwn(STATES, message.state)) {
    ui.status.textContent = text; // an unknown state changes no button
    return;
  }
  const state = message.state;
  ui.status.dataset.state = state;
  ui.status.textContent = text ? `${STATES[state]}: ${text}` : STATES[state];
  if (call.lost) return;
  ui.start.disabled = state !== "ready";
  ui.end.disabled = state !== "connecting" && state !== "live";
}

function onCard(message) {
  const persona = record(message.persona);
  const who = el("dl", "persona");
  for (const [label, key] of [["Name", "name"], ["Verbosity", "verbosity"], ["Behavior", "behavior"]]) {
    who.append(el("dt", "", label), el("dd", "", str(persona[key])));
  }
  const lines = el("ul", "lines");
  for (const raw of list(message.lines)) lines.append(cardLine(record(raw)));
  ui.card.replaceChildren(who, el("h3", "", "Goal"), el("p", "goal", str(message.goal)), lines);
  const now = lines.querySelector("li[data-state=now]");
  if (now) now.scrollIntoView({ block: "nearest" });
}

function cardLine(line) {
  const state = pick(LINE_STATES, line.state, "known");
  const kind = pick(LINE_KINDS, line.kind, "note");
  const item = el("li", `line state-${state} kind-${kind}`);
  item.dataset.state = state;
  item.dataset.id = str(line.id);
  if (state === "now") item.setAttribute("aria-current", "step");
  item.append(el("span", "tag", LINE_STATES[state]), " ", el("span", "kind", LINE_KINDS[kind]));
  item.append(" ", el("span", "text", str(line.text)));
  return item;
}

function onTranscript(message) {
  const id = str(message.id);
  const who = message.who === "agent" ? "agent" : "caller";
  const box = ui.transcript;
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  let item = call.lines.get(id);
  if (!item) {
    item = el("li");
    call.lines.set(id, item);
    box.append(item);
  }
  item.className = `line who-${who}${message.final === false ? " partial" : ""}`;
  item.replaceChildren(
    el("span", "time", clock(message.t_ms)), " ",
    el("span", "who", who === "agent" ? "Agent" : "You"), " ",
    el("span", "text", str(message.text)),
  );
  if (atBottom) box.scrollTop = box.scrollHeight;
}

function onArtifact(message) {
  const parts = list(message.artifacts).map((raw) => artifactTable(record(raw)));
  if (parts.length === 0) parts.push(el("p", "empty", "Nothing recorded yet."));
  ui.artifact.replaceChildren(...parts);
}

function artifactTable(artifact) {
  const table = el("table", "fields");
  const caption = el("caption", "", str(artifact.title));
  if (str(artifact.state)) caption.append(" ", el("span", "state", str(artifact.state)));
  const head = el("tr");
  for (const label of ["Field", "Value"]) {
    const cell = el("th", "", label);
    cell.scope = "col";
    head.append(cell);
  }
  const body = el("tbody");
  for (const raw of list(artifact.fields)) {
    const field = record(raw);
    const row = el("tr");
    const name = el("th", "", str(field.name));
    name.scope = "row";
    const empty = field.value === null || field.value === undefined;
    row.append(name, el("td", empty ? "unset" : "", empty ? "(not set)" : str(field.value)));
    body.append(row);
  }
  const thead = el("thead");
  thead.append(head);
  table.append(caption, thead, body);
  return table;
}

function onError(message) {
  showError(message.where, str(message.message));
}

function viewerUrl(value) {
  if (typeof value !== "string" || value === "") return null;
  let url;
  try {
    url = new URL(value); // absolute only: a relative path is not a viewer URL
  } catch {
    return null;
  }
  const http = url.protocol === "http:" || url.protocol === "https:";
  return http && url.origin === location.origin ? url.href : null;
}

function onEnded(message) {
  stopTalking();
  ui.start.disabled = true;
  ui.end.disabled = true;
  $("ended-reason").textContent = `Why it ended: ${str(message.reason)}`;
  $("ended-complete").textContent = message.complete === true
    ? "The episode is complete: it is scored as a simulated episode is."
    : "The episode is incomplete: it is saved, but not scored as a pass.";
  $("ended-folder").textContent = str(message.folder);
  $("ended-summary").textContent = str(message.summary);
  const viewer = $("ended-viewer");
  viewer.replaceChildren();
  const href = viewerUrl(message.viewer);
  if (href) {
    const link = el("a", "", "Open the episode viewer");
    link.id = "viewer-link";
    link.href = href;
    link.target = "_blank";
    link.rel = "noopener noreferrer";
    viewer.append(link);
  }
  ui.ended.hidden = false;
}

const HANDLERS = new Map([
  ["item", onItem], ["status", onStatus], ["card", onCard], ["transcript", onTranscript],
  ["artifact", onArtifact], ["error", onError], ["ended", onEnded],
]);
