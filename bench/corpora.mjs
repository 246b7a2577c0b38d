// Seeded randomness and the text corpora the generator slices its content from (see generate.mjs).
// Speed matters (1 GiB should take seconds), so all bulky text is sliced out of corpora built
// once per run instead of being made line by line.

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

export class Rng {
  constructor(seed) { this.next = mulberry32(seed); }
  int(lo, hi) { return lo + Math.floor(this.next() * (hi - lo + 1)); } // inclusive
  pick(arr) { return arr[Math.floor(this.next() * arr.length)]; }
  chance(p) { return this.next() < p; }
  logUniform(lo, hi) { return Math.round(Math.exp(Math.log(lo) + this.next() * (Math.log(hi) - Math.log(lo)))); }
  u32() { return Math.floor(this.next() * 4294967296) >>> 0; }
  /** Normal, mean 0 and deviation 1 (Box–Muller). */
  normal() { return Math.sqrt(-2 * Math.log(1 - this.next())) * Math.cos(2 * Math.PI * this.next()); }
  /** Log-normal with this median; sigma is the deviation of its logarithm. Clamped to [lo, hi]. */
  logNormal(median, sigma, lo, hi) { return Math.min(hi, Math.max(lo, Math.round(median * Math.exp(sigma * this.normal())))); }
  str(n, alphabet) { let s = ''; for (let i = 0; i < n; i++) s += alphabet[Math.floor(this.next() * alphabet.length)]; return s; }
}

// ---------------------------------------------------------------- corpora
// Mixed-language phrases so JSON.parse has to decode real multi-byte UTF-8.
export const WORDS = ('the a to of and in is it that for on with as this be are config file session tool call result ' +
  'parser error value test build module function return string buffer stream line token cache request ' +
  'provider model branch leaf entry header repair check update fix refactor deploy server client index ' +
  'schema field type option default path folder output input timeout retry memory limit').split(' ');
export const INTL = [
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

export const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function buildBase64(rng, bytes) {
  const u32 = new Uint32Array(Math.ceil(bytes / 4));
  for (let i = 0; i < u32.length; i++) u32[i] = rng.u32();
  return Buffer.from(u32.buffer).toString('base64');
}

// Slice [~start, ~start+len) of a corpus, snapped to the given boundary so we
// never cut a surrogate pair or a word.
export function slice(corpus, rng, len, boundary) {
  len = Math.min(len, corpus.length - 1024);
  let a = corpus.indexOf(boundary, rng.int(0, corpus.length - len - 1));
  a = a < 0 ? 0 : a + boundary.length;
  let b = corpus.indexOf(boundary, a + len);
  if (b < 0) b = corpus.length;
  return corpus.slice(a, b);
}

/** The three corpora every session slices from; built once per generator run. */
export function makeCorpora(rng) {
  return {
    prose_: buildProse(rng, 1 << 20),
    code_: buildCode(rng, 4 << 20),
    b64_: buildBase64(rng, 3 << 20),
  };
}
