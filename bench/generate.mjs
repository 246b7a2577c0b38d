// Deterministic generator of large, realistic pi v3 / OpenClaw session transcripts
// (see /work/shared/reference/openclaw.md §2, §4) for benchmarking the scanner.
//
//   node bench/generate.mjs <path> <size> [--seed N]      size: 100MB, 1GB, 512KB ...
//
// Sizes use binary units everywhere in the bench: 1 MB = 1 MiB = 2^20 bytes.
// Speed matters (1 GB should take seconds), so all bulky text is sliced out of
// corpora built once per run, and lines are written in multi-MiB chunks.

import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

// Bump whenever the output changes, so cached files in bench/.data are rebuilt.
export const GENERATOR_VERSION = 1;

export const DATA_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '.data');
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
const FORCED = { 20: 'unanswered', 40: 'aborted' }; // turn number → problem

// ---------------------------------------------------------------- PRNG
// mulberry32: tiny, fast and good enough for test data.
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Rng {
  constructor(seed) { this.next = mulberry32(seed); }
  int(lo, hi) { return lo + Math.floor(this.next() * (hi - lo + 1)); } // inclusive
  pick(arr) { return arr[Math.floor(this.next() * arr.length)]; }
  chance(p) { return this.next() < p; }
  logUniform(lo, hi) { return Math.round(Math.exp(Math.log(lo) + this.next() * (Math.log(hi) - Math.log(lo)))); }
  u32() { return Math.floor(this.next() * 4294967296) >>> 0; }
  str(n, alphabet) { let s = ''; for (let i = 0; i < n; i++) s += alphabet[Math.floor(this.next() * alphabet.length)]; return s; }
}

// ---------------------------------------------------------------- corpora
// Mixed-language phrases so JSON.parse has to decode real multi-byte UTF-8.
const WORDS = ('the a to of and in is it that for on with as this be are config file session tool call result ' +
  'parser error value test build module function return string buffer stream line token cache request ' +
  'provider model branch leaf entry header repair check update fix refactor deploy server client index ' +
  'schema field type option default path folder output input timeout retry memory limit').split(' ');
const INTL = [
  'Können Sie das bitte prüfen?', 'Ça marche très bien, merci !', '请帮我检查一下这个文件。',
  'このファイルを確認してください。', '¿Puedes revisar el código?', 'Привет, посмотри логи, пожалуйста.',
  'Tudo certo — próximo passo?', 'naïve café résumé façade', '한국어 테스트 문장입니다.',
  'deploy done 🚀', 'looks good ✅', 'hmm 🤔 not sure', 'thanks! 👍🏽', 'ship it 🔥🔥', 'Ελληνικά κείμενα εδώ',
];
const QUOTED = ['"quoted"', "it's", '`code`', '"a \\"nested\\" quote"', 'C:\\Users\\alice\\notes', '\t(tab)'];

function buildProse(rng, targetChars) {
  const parts = [];
  let n = 0;
  while (n < targetChars) {
    let s;
    const r = rng.next();
    if (r < 0.1) s = rng.pick(INTL);
    else {
      const len = rng.int(5, 22);
      const w = [];
      for (let i = 0; i < len; i++) w.push(rng.chance(0.04) ? rng.pick(QUOTED) : rng.pick(WORDS));
      w[0] = w[0][0].toUpperCase() + w[0].slice(1);
      s = w.join(' ') + '.';
    }
    // Sentence separators double as slice boundaries (never inside a surrogate pair).
    const sep = rng.chance(0.12) ? '\n\n' : rng.chance(0.06) ? '\n- ' : ' ';
    parts.push(s, sep);
    n += s.length + sep.length;
  }
  return parts.join('');
}

const CODE_LINES = [
  (r) => `export function ${r.pick(WORDS)}${r.int(1, 99)}(input: string, opts = {}) {`,
  (r) => `  const ${r.pick(WORDS)} = JSON.parse(await fs.readFile("${r.pick(WORDS)}.json", "utf8"));`,
  (r) => `  if (!${r.pick(WORDS)}) throw new Error(\`missing ${r.pick(WORDS)}: \${id}\`);`,
  (r) => `  return { ok: true, count: ${r.int(0, 9999)}, label: '${r.pick(WORDS)}' };`,
  () => '}',
  () => '',
  (r) => `def ${r.pick(WORDS)}_${r.pick(WORDS)}(self, path: str) -> dict:`,
  (r) => `    """${r.pick(INTL)}"""`,
  (r) => `    print(f"{path!r}: ${r.pick(WORDS)}\\n", file=sys.stderr)`,
  (r) => `// TODO(${r.pick(['alice', 'bob', 'jörg', 'zoë'])}): ${r.pick(INTL)}`,
  (r) => `2026-03-02T09:${String(r.int(10, 59))}:${String(r.int(10, 59))}.${r.int(100, 999)}Z INFO  [${r.pick(WORDS)}] request id=${r.u32().toString(16)} status=${r.pick([200, 201, 304, 404, 500])} ${r.int(1, 900)}ms`,
  (r) => `2026-03-02T09:${String(r.int(10, 59))}:00Z WARN  ${r.pick(INTL)} (retry ${r.int(1, 5)}/5)`,
  (r) => `  "${r.pick(WORDS)}": { "enabled": ${r.chance(0.5)}, "path": "C:\\\\Users\\\\alice\\\\${r.pick(WORDS)}" },`,
  (r) => `| ${r.pick(WORDS)} | ${r.int(1, 500)} | ${r.pick(INTL)} |`,
  (r) => `\tat ${r.pick(WORDS)}.${r.pick(WORDS)} (/home/alice/.openclaw/workspace/src/${r.pick(WORDS)}.ts:${r.int(1, 900)}:${r.int(1, 80)})`,
  (r) => `    ${r.pick(WORDS)} = ${r.pick(WORDS)}.replace("\\"", "'").strip()  # ${r.pick(WORDS)}`,
];

function buildCode(rng, targetChars) {
  const lines = [];
  let n = 0;
  while (n < targetChars) {
    const l = rng.pick(CODE_LINES)(rng);
    lines.push(l);
    n += l.length + 1;
  }
  return lines.join('\n') + '\n';
}

const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function buildBase64(rng, bytes) {
  const u32 = new Uint32Array(Math.ceil(bytes / 4));
  for (let i = 0; i < u32.length; i++) u32[i] = rng.u32();
  return Buffer.from(u32.buffer).toString('base64');
}

// Slice [~start, ~start+len) of a corpus, snapped to the given boundary so we
// never cut a surrogate pair or a word.
function slice(corpus, rng, len, boundary) {
  len = Math.min(len, corpus.length - 1024);
  let a = corpus.indexOf(boundary, rng.int(0, corpus.length - len - 1));
  a = a < 0 ? 0 : a + boundary.length;
  let b = corpus.indexOf(boundary, a + len);
  if (b < 0) b = corpus.length;
  return corpus.slice(a, b);
}

// ---------------------------------------------------------------- writer
class LineWriter {
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

class Session {
  constructor(rng, w, corpora) {
    Object.assign(this, { rng, w, ...corpora });
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

  prose(lo, hi) { return slice(this.prose_, this.rng, this.rng.int(lo, hi), '. ') + '.'; }
  code(len) { return slice(this.code_, this.rng, len, '\n'); }
  // Offsets and lengths in multiples of 4 keep every slice valid base64.
  b64(len) { const a = this.rng.int(0, (this.b64_.length - len) >> 2) << 2; return this.b64_.slice(a, a + (len & ~3)); }
  filePath(ext) { return `${WS}/${this.rng.pick(DIRS)}/${this.rng.pick(WORDS)}-${this.rng.int(1, 99)}.${ext ?? this.rng.pick(EXTS)}`; }
  toolId() { return 'toolu_01' + this.rng.str(22, B62); }
  image(mime) {
    this.stats.images++;
    const prefix = mime === 'image/png' ? 'iVBORw0KGgoAAAANSUhEUgAA' : '/9j/4AAQSkZJRgABAQAA';
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
    const text = this.rng.chance(0.1) ? '' : this.prose(80, 2500);
    return { type: 'thinking', thinking: text, thinkingSignature: 'EqQBCkYIBxgCKkB3' + this.b64(this.rng.int(200, 1600)) };
  }

  // A planned call: arguments now, result later. Size class first so that
  // results are mostly 200 B–8 KB, sometimes 50–200 KB, occasionally an image.
  planCall() {
    const r = this.rng.next();
    const size = r < 0.015 ? 'image' : r < 0.085 ? 'large' : 'normal';
    const len = size === 'large' ? this.rng.int(50_000, 200_000) : this.rng.logUniform(200, 8192);
    const rng = this.rng;
    let name, args, result;
    if (size === 'image') {
      if (rng.chance(0.5)) {
        const p = this.filePath('png');
        name = 'read'; args = { path: p };
        result = () => ({ content: [{ type: 'text', text: 'Read image file [image/png]' }, this.image('image/png')] });
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
            for (let n = 0, chars = 0; n < 5 || chars < len; n++) {
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
    let text = this.prose(30, 600);
    if (rng.chance(0.2)) text = rng.pick(INTL) + '\n\n' + text;
    if (rng.chance(0.15)) text += '\n\n```ts\n' + this.code(rng.int(100, 900)) + '```';
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

    const rr = rng.next();
    let rounds = rr < 0.1 ? 0 : rr < 0.6 ? 1 : rr < 0.85 ? 2 : 3;
    let problem = rng.next();
    // Force one of each problem early, so even a small file has both kinds.
    const forced = FORCED[this.stats.turns];
    if (forced) { rounds = Math.max(rounds, 1); problem = forced === 'aborted' ? 0 : P.aborted; }
    for (let r = 0; r < rounds; r++) {
      const last = r === rounds - 1;
      if (last && problem < P.aborted) return this.abortedRound(t);
      const calls = Array.from({ length: rng.int(1, 4) }, () => this.planCall());
      const content = [this.thinking()];
      if (rng.chance(0.85)) content.push({ type: 'text', text: this.prose(20, 400) });
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
    const content = rng.chance(0.7) ? [this.thinking()] : [];
    let text = this.prose(60, 3000);
    if (rng.chance(0.2)) text += '\n\n```python\n' + this.code(rng.int(100, 1500)) + '```\n' + rng.pick(INTL);
    content.push({ type: 'text', text });
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

// ---------------------------------------------------------------- API

/** Write a transcript of at least targetBytes to file. Returns stats. */
export async function generateTranscript(file, targetBytes, { seed = 1 } = {}) {
  const t0 = performance.now();
  const rng = new Rng(seed);
  const corpora = {
    prose_: buildProse(rng, 1 << 20),
    code_: buildCode(rng, 4 << 20),
    b64_: buildBase64(rng, 3 << 20),
  };
  const stream = fs.createWriteStream(file, { highWaterMark: 16 << 20 });
  const w = new LineWriter(stream);
  const s = new Session(rng, w, corpora);
  s.header();
  s.turn();
  s.entry('session_info', { name: 'Refactor the parser — 日本語 notes 🚀' });
  // Stop only after a clean turn, so every problem is followed by a user turn.
  while (w.approxBytes < targetBytes || s.turns[s.turns.length - 1].problem) {
    s.maybeBranch(); // before betweenTurns, so bookkeeping entries never sit on an abandoned branch
    s.betweenTurns();
    s.turn();
    await w.maybeFlush();
  }
  await w.maybeFlush(true);
  stream.end();
  await once(stream, 'finish');
  const ms = performance.now() - t0;
  return {
    generatorVersion: GENERATOR_VERSION, seed, targetBytes, bytes: w.bytes, lines: w.lines, ms: Math.round(ms),
    mibPerSec: Math.round((w.bytes / 2 ** 20 / (ms / 1000)) * 10) / 10, ...s.stats,
  };
}

/** Parse "128MB", "1GB", "512KiB", "1000000" → bytes (binary units). */
export function parseSize(str) {
  const m = /^(\d+(?:\.\d+)?)\s*([kmg]i?b?)?$/i.exec(String(str).trim());
  if (!m) throw new Error(`bad size "${str}" (try 100MB, 1GB)`);
  const mult = { k: 2 ** 10, m: 2 ** 20, g: 2 ** 30 }[(m[2] ?? ' ')[0].toLowerCase()] ?? 1;
  return Math.round(Number(m[1]) * mult);
}

/**
 * Return a cached transcript of targetBytes for seed, generating it if needed.
 * Cache key: size + seed + GENERATOR_VERSION. A .meta.json sidecar holds the
 * stats (including the injected problem counts) and marks the file complete.
 */
export async function ensureTranscript(targetBytes, { seed = 1, dir = DATA_DIR, log = console.log } = {}) {
  fs.mkdirSync(dir, { recursive: true });
  const base = `session-${targetBytes}-s${seed}-v${GENERATOR_VERSION}`;
  const file = path.join(dir, `${base}.jsonl`);
  const metaFile = path.join(dir, `${base}.meta.json`);
  try {
    const meta = JSON.parse(fs.readFileSync(metaFile, 'utf8'));
    if (fs.statSync(file).size === meta.bytes) return { file, meta, cached: true };
  } catch { /* missing or stale: regenerate */ }
  // Old generator versions are dead weight (up to GBs each): remove them.
  for (const f of fs.readdirSync(dir)) {
    // Includes the Claude Code twins (…-vN.claude-code.jsonl) converted from them.
    if (/^session-.*-v\d+\./.test(f) && !f.includes(`-v${GENERATOR_VERSION}.`)) {
      fs.rmSync(path.join(dir, f), { force: true });
    }
  }
  const { bavail, bsize } = fs.statfsSync(dir);
  if (bavail * bsize < targetBytes * 1.1 + (512 << 20)) {
    throw new Error(`not enough disk space in ${dir} for a ${fmtBytes(targetBytes)} transcript (${fmtBytes(bavail * bsize)} free)`);
  }
  log(`generating ${fmtBytes(targetBytes)} transcript (seed ${seed}) → ${path.relative(process.cwd(), file)} ...`);
  const tmp = `${file}.tmp-${process.pid}`;
  const meta = await generateTranscript(tmp, targetBytes, { seed });
  fs.renameSync(tmp, file);
  fs.writeFileSync(metaFile, JSON.stringify(meta, null, 2) + '\n');
  log(`  ${meta.lines} lines, ${fmtBytes(meta.bytes)} in ${(meta.ms / 1000).toFixed(1)} s (${meta.mibPerSec} MiB/s)`);
  return { file, meta, cached: false };
}

export function fmtBytes(n) {
  return n >= 2 ** 30 ? `${(n / 2 ** 30).toFixed(2)} GiB` : n >= 2 ** 20 ? `${(n / 2 ** 20).toFixed(1)} MiB` : `${(n / 1024).toFixed(1)} KiB`;
}

// ---------------------------------------------------------------- CLI
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  const seedAt = args.indexOf('--seed');
  const seed = seedAt >= 0 ? Number(args.splice(seedAt, 2)[1]) : 1;
  if (args.length !== 2 || !Number.isInteger(seed)) {
    console.error('usage: node bench/generate.mjs <path> <size e.g. 100MB|1GB> [--seed N]   (MB = 2^20 bytes)');
    process.exit(2);
  }
  const stats = await generateTranscript(args[0], parseSize(args[1]), { seed });
  console.log(JSON.stringify(stats, null, 2));
}
