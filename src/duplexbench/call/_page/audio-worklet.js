// The page's two AudioWorklet processors (loaded by app.js with addModule).
//
// mic-capture: cuts the microphone into chunks of `chunk` frames (20 ms at the
// context rate), converts float32 to int16 little-endian and posts each chunk
// with its peak level; the page decides whether it goes to the server.
//
// agent-player: a ring buffer of the agent's 16 kHz int16 audio, read at the
// context rate with linear interpolation, so chunks arriving back to back play
// without a gap. It starts (and restarts after running dry) only once
// PREBUFFER samples are queued, which absorbs network jitter; when the ring is
// full the oldest audio is skipped, so playback never drifts far behind.

const AGENT_RATE = 16000;
const RING = AGENT_RATE * 20;
const PREBUFFER = AGENT_RATE * 0.04;

class MicCapture extends AudioWorkletProcessor {
  constructor(options) {
    super();
    this.size = options.processorOptions.chunk;
    this.fresh();
  }

  fresh() {
    this.view = new DataView(new ArrayBuffer(this.size * 2));
    this.fill = 0;
    this.peak = 0;
  }

  process(inputs) {
    const samples = inputs[0] && inputs[0][0];
    if (!samples) return true;
    for (let i = 0; i < samples.length; i++) {
      const s = Math.max(-1, Math.min(1, samples[i]));
      this.peak = Math.max(this.peak, Math.abs(s));
      this.view.setInt16(this.fill * 2, Math.round(s < 0 ? s * 0x8000 : s * 0x7fff), true);
      this.fill += 1;
      if (this.fill === this.size) {
        const pcm = this.view.buffer;
        this.port.postMessage({ pcm, level: this.peak }, [pcm]);
        this.fresh();
      }
    }
    return true;
  }
}

class AgentPlayer extends AudioWorkletProcessor {
  constructor() {
    super();
    this.ring = new Float32Array(RING);
    this.written = 0; // samples ever queued
    this.position = 0; // read position in the same count, fractional
    this.step = AGENT_RATE / sampleRate;
    this.playing = false;
    this.port.onmessage = (event) => this.queue(event.data);
  }

  queue(buffer) {
    const view = new DataView(buffer);
    const n = buffer.byteLength >> 1;
    for (let i = 0; i < n; i++) {
      this.ring[(this.written + i) % RING] = view.getInt16(i * 2, true) / 32768;
    }
    this.written += n;
    if (this.written - this.position > RING - 2) this.position = this.written - (RING - 2);
  }

  process(inputs, outputs) {
    const out = outputs[0][0];
    for (let i = 0; i < out.length; i++) {
      const base = Math.floor(this.position);
      const queued = this.written - base;
      if (!this.playing && queued >= PREBUFFER) this.playing = true;
      if (!this.playing || queued < 2) {
        this.playing = false;
        out[i] = 0;
        continue;
      }
      const a = this.ring[base % RING];
      const b = this.ring[(base + 1) % RING];
      out[i] = a + (b - a) * (this.position - base);
      this.position += this.step;
    }
    return true;
  }
}

registerProcessor("mic-capture", MicCapture);
registerProcessor("agent-player", AgentPlayer);
