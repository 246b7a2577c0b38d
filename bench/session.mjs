// The session model of the generator (see generate.mjs): a pi v3 / OpenClaw conversation of user
// turns, tool rounds and bookkeeping entries, with a few injected problems, written through a
// LineWriter. How big each part is comes from a shape (shapes.mjs).

import { once } from 'node:events';
import { B62, slice, WORDS } from './corpora.mjs';

const CHUNK_CHARS = 4 << 20; // flush threshold: every write is >= ~4 MiB
const SYNTHETIC_TEXT =
  '[openclaw] missing tool result in session history; inserted synthetic error result for transcript repair.';

// Per-turn probabilities. A turn is ~7 lines and a problem puts 1–2 bad lines
// in the file, so 0.3% + 0.3% of turns ≈ 0.1% of lines.
const P = {
  unanswered: 0.003, // toolCall(s) left without results, then the next user turn
  aborted: 0.003, // aborted assistant with partialJson + synthetic result
  branch: 0.004, // user goes back: next turn re-parented to before the previous turn
  modelSwitch: 0.004,
  cacheTtl: 0.05,
};
const CONTEXT_LIMIT = 160_000; // tokens; compaction threshold
/** Pixel sizes of the pictures an agent reads: screens, photos, diagrams. */
const PICTURE_SIZES = [[1920, 1080], [2560, 1440], [1440, 900], [3024, 1964], [1024, 768], [800, 600], [1200, 630]];

/** The first bytes of a PNG or JPEG of these dimensions (a multiple of 3, so its base64 joins more base64). */
function imageHeader(mime, width, height) {
  if (mime === 'image/png') {
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(width, 0);
    ihdr.writeUInt32BE(height, 4);
    ihdr.set([8, 6, 0, 0, 0], 8);
    return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), Buffer.from('IHDR'), ihdr, Buffer.alloc(4)]);
  }
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x48, 0x00, 0x48, 0x00, 0x00]);
  const sof0 = Buffer.alloc(19);
  sof0.set([0xff, 0xc0, 0x00, 0x11, 0x08], 0);
  sof0.writeUInt16BE(height, 5);
  sof0.writeUInt16BE(width, 7);
  sof0.set([0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01], 9);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof0]);
}

export const FORCED = { 20: 'unanswered', 40: 'aborted' }; // turn number → problem

export class LineWriter {
  constructor(stream) {
    this.stream = stream;
    this.parts = [];
    this.pendingChars = 0;
    this.bytes = 0;
    this.lines = 0;
  }
  push(obj) {
    const s = JSON.stringify(obj);
    this.parts.push(s);
    this.pendingChars += s.length + 1;
    this.lines++;
  }
  // chars <= UTF-8 bytes, so this never overestimates the file size.
  get approxBytes() { return this.bytes + this.pendingChars; }
  async maybeFlush(force = false) {
    if (!force && this.pendingChars < CHUNK_CHARS) return;
    if (this.parts.length === 0) return;
    const buf = Buffer.from(this.parts.join('\n') + '\n', 'utf8');
    this.parts = [];
    this.pendingChars = 0;
    this.bytes += buf.length;
    if (!this.stream.write(buf)) await once(this.stream, 'drain'); // backpressure
  }
}

// ---------------------------------------------------------------- session model
const WS = '/home/alice/.openclaw/workspace';
const DIRS = ['src', 'src/lib', 'scripts', 'docs', 'notes', 'tests', 'notes/réunions', '文档', 'assets'];
const EXTS = ['ts', 'ts', 'py', 'md', 'json', 'log', 'yaml'];
const COMMANDS = [
  'npm test -- --reporter=dot', 'git status --short', 'git log --oneline -n 20', 'rg -n "TODO" src',
  'python3 scripts/report.py --since 2026-02-01', 'ls -la notes', 'docker compose ps',
  'tail -n 200 logs/server.log', 'node --version && npm --version', 'cat package.json | jq .scripts',
];
const MODELS = [
  { provider: 'anthropic', api: 'anthropic-messages', modelId: 'claude-sonnet-4-5', price: [3, 15] },
  { provider: 'anthropic', api: 'anthropic-messages', modelId: 'claude-opus-4-6', price: [5, 25] },
  { provider: 'anthropic', api: 'anthropic-messages', modelId: 'claude-haiku-4-5', price: [1, 5] },
];

export class Session {
  constructor(rng, w, corpora, shape) {
    Object.assign(this, { rng, w, shape, ...corpora });
    this.ids = new Set();
    this.leaf = null;
    this.now = Date.UTC(2026, 2, 2, 9, 14, 3, 118);
    this.model = MODELS[0];
    this.context = 2000; // tokens in context, drives usage numbers
    this.turns = []; // recent turns on the current path: {userId, userParent, problem}
    this.stats = {
      entries: 0, turns: 0, toolCalls: 0, toolResults: 0, images: 0, largeResults: 0, compactions: 0,
      modelSnapshots: 0, branches: 0,
      problems: { unansweredToolCalls: 0, unansweredTurns: 0, abortedPartialJsonTurns: 0, syntheticResults: 0 },
    };
  }

  newId() {
    for (;;) {
      const id = this.rng.u32().toString(16).padStart(8, '0');
      if (!this.ids.has(id)) { this.ids.add(id); return id; }
    }
  }
  tick(lo, hi) { this.now += this.rng.int(lo, hi); return this.now; }
  entry(type, fields) {
    const id = this.newId();
    this.w.push({ type, id, parentId: this.leaf, timestamp: new Date(this.tick(5, 900)).toISOString(), ...fields });
    this.leaf = id;
    this.stats.entries++;
    return id;
  }
  message(message) { return this.entry('message', { message }); }

  prose(lo, hi) { return this.proseOf(this.rng.int(lo, hi)); }
  proseOf(len) { return slice(this.prose_, this.rng, len, '. ') + '.'; }
  code(len) { return slice(this.code_, this.rng, len, '\n'); }
  // Offsets and lengths in multiples of 4 keep every slice valid base64.
  b64(len) { const a = this.rng.int(0, (this.b64_.length - len) >> 2) << 2; return this.b64_.slice(a, a + (len & ~3)); }
  filePath(ext) { return `${WS}/${this.rng.pick(DIRS)}/${this.rng.pick(WORDS)}-${this.rng.int(1, 99)}.${ext ?? this.rng.pick(EXTS)}`; }
  toolId() { return 'toolu_01' + this.rng.str(22, B62); }
  // A real header (PNG's IHDR, JPEG's SOF0) with a picture's dimensions, then random base64: size
  // checks read the pixels from the header, as they would of a real screenshot.
  image(mime, width = 1280, height = 800) {
    this.stats.images++;
    const prefix = imageHeader(mime, width, height).toString('base64');
    return { type: 'image', data: prefix + this.b64(this.rng.int(100_000, 300_000)), mimeType: mime };
  }

  usage(outChars) {
    const m = this.model;
    const output = Math.max(8, Math.round(outChars / 4));
    const cacheRead = Math.round(this.context * 0.9);
    const input = this.context - cacheRead;
    const cacheWrite = this.rng.int(0, 2000);
    const r6 = (x) => Math.round(x * 1e6) / 1e6;
    const cost = {
      input: r6((input * m.price[0]) / 1e6), output: r6((output * m.price[1]) / 1e6),
      cacheRead: r6((cacheRead * m.price[0] * 0.1) / 1e6), cacheWrite: r6((cacheWrite * m.price[0] * 1.25) / 1e6),
    };
    cost.total = r6(cost.input + cost.output + cost.cacheRead + cost.cacheWrite);
    return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite, cost };
  }
  assistant(content, stopReason, extra = {}) {
    let chars = 0;
    for (const b of content) chars += (b.text ?? b.thinking ?? '').length + (b.arguments ? 80 : 0);
    const msg = {
      role: 'assistant', content, api: this.model.api, provider: this.model.provider, model: this.model.modelId,
      usage: this.usage(chars), stopReason, ...extra, timestamp: this.tick(800, 20_000),
    };
    this.context += Math.round(chars / 4);
    return this.message(msg);
  }
  thinking() {
    // Adaptive thinking sometimes persists an empty plaintext with a long signature (normal, §4 note 6).
    const text = this.shape.thinkingText(this);
    return { type: 'thinking', thinking: text, thinkingSignature: 'EqQBCkYIBxgCKkB3' + this.b64(this.shape.signatureLength(this.rng)) };
  }

  // A planned call: arguments now, result later; the shape picks the result's size.
  planCall() {
    const { size, len } = this.shape.callSize(this.rng);
    const rng = this.rng;
    let name, args, result;
    if (size === 'image') {
      if (rng.chance(0.5)) {
        const p = this.filePath('png');
        name = 'read'; args = { path: p };
        const [width, height] = rng.pick(PICTURE_SIZES);
        result = () => ({ content: [{ type: 'text', text: 'Read image file [image/png]' }, this.image('image/png', width, height)] });
      } else {
        const url = `https://example.com/${rng.pick(WORDS)}?q=${rng.int(1, 999)}`;
        name = 'browser'; args = { action: 'screenshot', targetUrl: url };
        result = () => ({ content: [{ type: 'text', text: `Screenshot of ${url}` }, this.image('image/jpeg')], details: { width: 1280, height: 800 } });
      }
    } else {
      name = size === 'large' ? rng.pick(['read', 'read', 'web_fetch', 'exec'])
        : rng.pick(['read', 'read', 'exec', 'exec', 'edit', 'write', 'web_search', 'web_fetch']);
      if (size === 'large') this.stats.largeResults++;
      switch (name) {
        case 'read': {
          const p = this.filePath();
          args = rng.chance(0.2) ? { path: p, offset: rng.int(1, 400), limit: 2000 } : { path: p };
          result = () => ({ content: [{ type: 'text', text: this.code(len) }] });
          break;
        }
        case 'exec': {
          args = rng.chance(0.3) ? { command: rng.pick(COMMANDS), workdir: WS, timeout: 120 } : { command: rng.pick(COMMANDS) };
          const fail = rng.chance(0.08); // a failing command is normal, not a transcript problem
          result = () => ({
            content: [{ type: 'text', text: (fail ? 'Command exited with code 1\n' : '') + this.code(len) }],
            details: { exitCode: fail ? 1 : 0, durationMs: rng.int(5, 60_000) }, isError: fail,
          });
          break;
        }
        case 'edit': {
          const p = this.filePath();
          args = { path: p, oldText: this.code(rng.int(40, 400)), newText: this.code(rng.int(40, 600)) };
          result = () => ({ content: [{ type: 'text', text: `Successfully replaced text in ${p}.` }], details: { diff: this.code(len) } });
          break;
        }
        case 'write': {
          const p = this.filePath();
          args = { path: p, content: this.code(len) };
          result = () => ({ content: [{ type: 'text', text: `Successfully wrote ${args.content.length} bytes to ${p}` }] });
          break;
        }
        case 'web_search': {
          args = { query: this.prose(10, 80).slice(0, 120), count: 5 };
          // Tool output that is itself JSON → doubly escaped quotes in the line.
          result = () => {
            const hits = [];
            for (let n = 0, chars = 0; n < this.shape.minSearchHits || chars < len; n++) {
              const hit = { title: this.prose(10, 60), url: `https://example.org/${rng.pick(WORDS)}/${n}`, snippet: this.prose(80, 300) };
              hits.push(hit);
              chars += hit.title.length + hit.snippet.length + 80;
            }
            return { content: [{ type: 'text', text: JSON.stringify({ query: args.query, results: hits }, null, 2) }] };
          };
          break;
        }
        default: { // web_fetch
          const url = `https://docs.example.org/${rng.pick(WORDS)}/${rng.pick(WORDS)}.html`;
          args = { url, extractMode: 'markdown', maxChars: 200_000 };
          result = () => ({ content: [{ type: 'text', text: `# ${rng.pick(WORDS)}\n\n` + this.prose(len, len) }], details: { status: 200, url } });
        }
      }
    }
    return { id: this.toolId(), name, args, result };
  }
  call(c) { this.stats.toolCalls++; return { type: 'toolCall', id: c.id, name: c.name, arguments: c.args }; }
  toolResult(c) {
    const r = c.result();
    this.stats.toolResults++;
    for (const b of r.content) this.context += Math.round((b.text ?? '').length / 4) + (b.data ? 1600 : 0); // images ≈ 1.6k tokens
    return this.message({
      role: 'toolResult', toolCallId: c.id, toolName: c.name, content: r.content,
      ...(r.details ? { details: r.details } : {}), isError: r.isError ?? false, timestamp: this.tick(50, 30_000),
    });
  }
  userMessage() {
    const rng = this.rng;
    const text = this.shape.userText(this);
    let content = rng.chance(0.6) ? text : [{ type: 'text', text }];
    if (rng.chance(0.004)) content = [{ type: 'text', text }, this.image('image/png')];
    this.context += Math.round(text.length / 4);
    return this.message({ role: 'user', content, timestamp: this.tick(5_000, 600_000) });
  }

  header() {
    const h = this.rng.str(32, '0123456789abcdef');
    const uuid = `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20)}`;
    this.w.push({ type: 'session', version: 3, id: uuid, timestamp: new Date(this.now).toISOString(), cwd: WS });
    this.entry('model_change', { provider: this.model.provider, modelId: this.model.modelId });
    this.entry('thinking_level_change', { thinkingLevel: 'medium' });
    this.modelSnapshot();
  }
  modelSnapshot() {
    this.stats.modelSnapshots++;
    const m = this.model;
    this.entry('custom', { customType: 'model-snapshot', data: { timestamp: this.now, provider: m.provider, modelApi: m.api, modelId: m.modelId } });
  }

  // Entries between turns. Only after clean turns: a problem turn must be
  // followed directly by the next user message (that is the problem's shape).
  betweenTurns() {
    const rng = this.rng;
    const last = this.turns[this.turns.length - 1];
    if (last.problem) return;
    this.shape.bookkeeping(this);
    if (rng.chance(P.modelSwitch)) {
      this.model = rng.pick(MODELS.filter((m) => m !== this.model));
      this.entry('model_change', { provider: this.model.provider, modelId: this.model.modelId });
      this.modelSnapshot();
    }
    if (rng.chance(P.cacheTtl)) {
      this.entry('custom', { customType: 'openclaw.cache-ttl', data: { timestamp: this.now, provider: this.model.provider, modelId: this.model.modelId } });
    }
    // pi compacts when the context nears the model's window (200k for Claude).
    if (this.context > CONTEXT_LIMIT && this.turns.length > 3) {
      // firstKeptEntryId must be on the current path and not a toolResult: a recent user message.
      const kept = this.turns[this.turns.length - rng.int(1, Math.min(6, this.turns.length))].userId;
      this.entry('compaction', {
        summary: '## Goal\n' + this.prose(300, 3000) + '\n\n## Progress\n- ' + this.prose(100, 800),
        firstKeptEntryId: kept, tokensBefore: this.context,
        details: { readFiles: [this.filePath(), this.filePath()], modifiedFiles: [this.filePath()] },
      });
      this.stats.compactions++;
      this.context = rng.int(3000, 12000);
    }
  }

  // Abandon the last turn: the next user message hangs off the entry before it.
  maybeBranch() {
    const n = this.turns.length;
    if (n < 3 || this.turns[n - 1].problem || this.turns[n - 2].problem || !this.rng.chance(P.branch)) return;
    const abandoned = this.turns.pop();
    this.leaf = abandoned.userParent;
    this.stats.branches++;
    if (this.rng.chance(0.5)) {
      this.entry('branch_summary', {
        fromId: this.leaf, summary: 'Abandoned branch: ' + this.prose(50, 400), details: { readFiles: [], modifiedFiles: [] },
      });
    }
  }

  turn() {
    const rng = this.rng;
    const userParent = this.leaf;
    const userId = this.userMessage();
    const t = { userId, userParent, problem: false };
    this.turns.push(t);
    if (this.turns.length > 64) this.turns.shift(); // only recent turns are ever branched/kept
    this.stats.turns++;

    let rounds = this.shape.rounds(rng);
    let problem = rng.next();
    // Force one of each problem early, so even a small file has both kinds.
    const forced = FORCED[this.stats.turns];
    if (forced) { rounds = Math.max(rounds, 1); problem = forced === 'aborted' ? 0 : P.aborted; }
    for (let r = 0; r < rounds; r++) {
      const last = r === rounds - 1;
      if (last && problem < P.aborted) return this.abortedRound(t);
      const calls = Array.from({ length: this.shape.callsPerRound(rng) }, () => this.planCall());
      const content = this.shape.roundThinking(rng) ? [this.thinking()] : [];
      const text = this.shape.roundText(this);
      if (text !== undefined) content.push({ type: 'text', text });
      for (const c of calls) content.push(this.call(c));
      this.assistant(content, 'toolUse');
      if (last && problem < P.aborted + P.unanswered) {
        // Crash mid-tool: the last call(s) never got results; next line is a user turn.
        const answered = rng.int(0, calls.length - 1);
        for (const c of calls.slice(0, answered)) this.toolResult(c);
        t.problem = true;
        this.stats.problems.unansweredTurns++;
        this.stats.problems.unansweredToolCalls += calls.length - answered;
        return;
      }
      for (const c of calls) this.toolResult(c);
    }
    const content = this.shape.finalThinking(rng) ? [this.thinking()] : [];
    content.push({ type: 'text', text: this.shape.finalText(this) });
    this.assistant(content, 'stop');
  }

  // The user pressed stop while a tool call was streaming: the call keeps its
  // partialJson, and OpenClaw's guard later wrote a synthetic result for it.
  abortedRound(t) {
    const c = this.planCall();
    const full = JSON.stringify(c.args);
    const partialJson = full.slice(0, Math.max(2, Math.floor(full.length * this.rng.next())));
    const call = { ...this.call(c), arguments: {}, partialJson };
    this.assistant([this.thinking(), { type: 'text', text: this.prose(20, 200) }, call], 'aborted', { errorMessage: 'Request was aborted' });
    this.stats.toolResults++;
    this.message({
      role: 'toolResult', toolCallId: c.id, toolName: c.name, content: [{ type: 'text', text: SYNTHETIC_TEXT }],
      details: { openclawSyntheticMissingToolResult: true, reason: 'missing_tool_result' }, isError: true, timestamp: this.tick(1, 50),
    });
    t.problem = true;
    this.stats.problems.abortedPartialJsonTurns++;
    this.stats.problems.syntheticResults++;
  }
}
