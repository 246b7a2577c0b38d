import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanFile } from '../../src/pipeline/scan.js';
import type { Finding } from '../../src/pipeline/finding.js';
import { sizeRules } from '../../src/rules/size/index.js';
import { call, Session, text } from '../helpers/session.js';
import { callTurn, codeText, grownSession, pngBlock } from '../helpers/size-sessions.js';

/**
 * The size rules on every format's own records: a pi session written by the test, then rewritten
 * as each agent writes its sessions by the converters the benchmarks use (bench/to-*.mjs), and
 * scanned as that agent's file. Each agent talks to its own provider with its own model, so each
 * finding quotes that provider's words against that model's window.
 */
type Convert = (source: string, target: string, options?: { real?: boolean }) => Promise<unknown>;

const dir = mkdtempSync(join(tmpdir(), 'size-formats-'));
let files = 0;

async function converter(script: string, name: string): Promise<Convert> {
  const module = (await import(new URL(`../../bench/${script}`, import.meta.url).href)) as Record<string, Convert>;
  return module[name]!;
}

/** The session as `format` writes it, scanned with the size rules alone. */
async function sizeFindings(format: string, session: Session): Promise<{ format: string | null; findings: Finding[] }> {
  const pi = join(dir, `${++files}.pi.jsonl`);
  writeFileSync(pi, session.jsonl());
  let file = pi;
  if (format !== 'pi') {
    file = join(dir, `${files}.${format}.jsonl`);
    const [script, name] = CONVERTERS[format]!;
    await (await converter(script, name))(pi, file, { real: true });
  }
  const report = await scanFile(file, sizeRules);
  return { format: report.format, findings: report.findings };
}

const CONVERTERS: Record<string, [string, string]> = {
  'claude-code': ['to-claude-code.mjs', 'toClaudeCode'],
  codex: ['to-codex.mjs', 'toCodex'],
  'copilot-cli': ['to-copilot.mjs', 'toCopilot'],
  'gemini-cli': ['to-gemini.mjs', 'toGemini'],
  'qwen-code': ['to-qwen-code.mjs', 'toQwenCode'],
};

/**
 * Per format: the window its converter's model has, and the words its provider (or gateway)
 * answers with. `unanchored`: the agent records no usage the estimate could start from (Gemini
 * CLI), so the session is over the window by its content alone.
 */
const OVER_WINDOW: Array<{ format: string; window: number; words: RegExp; unanchored?: true }> = [
  { format: 'pi', window: 200_000, words: /^Anthropic: prompt is too long: \d+ tokens > 200000 maximum$/ },
  { format: 'claude-code', window: 200_000, words: /^Anthropic: prompt is too long: \d+ tokens > 200000 maximum$/ },
  { format: 'codex', window: 272_000, words: /^OpenAI Responses: Your input exceeds the context window of this model\. Please adjust your input and try again\.$/ },
  { format: 'copilot-cli', window: 144_000, words: /^GitHub Copilot \(CAPI\): prompt token count of \d+ exceeds the limit of 144000$/ },
  { format: 'gemini-cli', window: 1_048_576, words: /^Gemini: The input token count \(\d+\) exceeds the maximum number of tokens allowed \(1048576\)\.$/, unanchored: true },
  // The converter records Qwen Code's contextWindowSize (131072), which wins over the table's 1M for qwen3-coder-plus.
  { format: 'qwen-code', window: 131_072, words: /^OpenAI Chat: This model's maximum context length is 131072 tokens\. However, your messages resulted in \d+ tokens\./ },
];

describe('context-window-exceeded on each agent’s own records', () => {
  for (const { format, window, words, unanchored } of OVER_WINDOW) {
    it(`${format}: recorded usage near the window, then a result that tips it over`, async () => {
      const session = unanchored ? grownSession(0, 3_300_000) : grownSession(window - 10_000, 200_000);
      const { format: read, findings } = await sizeFindings(format, session);
      expect(read).toBe(format);
      const over = findings.filter((finding) => finding.rule === 'context-window-exceeded');
      expect(over, JSON.stringify(findings)).toHaveLength(1);
      expect(over[0]!.message).toContain(`${window.toLocaleString('en-US')}-token context window`);
      expect(over[0]!.providerError).toMatch(words);
    });

    it(`${format}: the same session with a small result fits`, async () => {
      const { findings } = await sizeFindings(format, grownSession(Math.round(window / 2), 2_000));
      expect(findings).toEqual([]);
    });
  }
});

/** A tool that returned a screenshot: text, then the image, in its result. */
function screenshotSession(width: number, height: number, bytes?: number): Session {
  const session = new Session().user('Look at the page');
  callTurn(session, 'c1', 2_000);
  return session.result('c1', 'screenshot', { message: { content: [text('page'), pngBlock(width, height, bytes)] } }).reply();
}

describe('image-too-large inside tool results, as the agents write them', () => {
  for (const format of ['pi', 'claude-code']) {
    it(`${format}: a 4 MB PNG is over Anthropic's 5 MB of base64`, async () => {
      const { findings } = await sizeFindings(format, screenshotSession(1600, 1000, 4_000_000));
      expect(findings.map((f) => f.rule)).toEqual(['image-too-large']);
      expect(findings[0]!.providerError).toMatch(/^Anthropic: messages\.\d+\.content\.\d+\.tool_result\.content\.0\.image\.source\.base64: image exceeds 5 MB maximum: 5333336 bytes > 5242880 bytes$/);
    });

    it(`${format}: 9000 pixels wide is over 8000`, async () => {
      const { findings } = await sizeFindings(format, screenshotSession(9000, 1000));
      expect(findings.map((f) => f.rule)).toEqual(['image-too-large']);
      expect(findings[0]!.providerError).toMatch(/At least one of the image dimensions exceed max allowed size: 8000 pixels$/);
    });
  }

  it('pi: an image over 8000 pixels in a user turn', async () => {
    const { findings } = await sizeFindings('pi', new Session().user([text('Read this scan'), pngBlock(1000, 8500)]).reply());
    expect(findings.map((f) => f.rule)).toEqual(['image-too-large']);
    expect(findings[0]!.providerError).toMatch(/^Anthropic: messages\.0\.content\.1\.image\.source\.base64\.data: At least one/);
  });
});

describe('request and string limits, as the agents write them', () => {
  it("copilot-cli: a session over CAPI's 5 MB", async () => {
    const { findings } = await sizeFindings('copilot-cli', grownSession(1_000, 6_000_000));
    const large = findings.filter((f) => f.rule === 'request-too-large');
    expect(large).toHaveLength(1);
    expect(large[0]!.providerError).toMatch(/^GitHub Copilot \(CAPI\): The request is too large to send through CAPI Responses\. Try shortening the conversation or prompt\. \(\d+\.\d MB request; 5\.0 MB limit\)$/);
  });

  it("claude-code: over Anthropic's 32 MB", async () => {
    const { findings } = await sizeFindings('claude-code', grownSession(1_000, 33_000_000, 'claude-sonnet-4-6'));
    expect(findings.filter((f) => f.rule === 'request-too-large').map((f) => f.providerError)).toEqual(['Anthropic: request_too_large: Request exceeds the maximum size']);
  });

  it("codex: a 12,000,000-character output over the Responses API's string limit", async () => {
    const { findings } = await sizeFindings('codex', grownSession(1_000, 12_000_000));
    const long = findings.filter((f) => f.rule === 'string-too-long');
    expect(long).toHaveLength(1);
    // Codex writes the output with its exit code and timing around it: a little longer than the text.
    expect(long[0]!.providerError).toMatch(/string too long\. Expected a string with maximum length 10485760, but got a string with length 12\d{6} instead\.$/);
  });

  it('qwen-code: a 21,000,000-character pasted log over DashScope’s string limit', async () => {
    const { findings } = await sizeFindings('qwen-code', new Session().user(codeText(21_000_000)).reply());
    const long = findings.filter((f) => f.rule === 'string-too-long');
    expect(long).toHaveLength(1);
    expect(long[0]!.providerError).toMatch(/^DashScope: String value length \(21\d{6}\) exceeds the maximum allowed \(20000000, from `StreamReadConstraints\.getMaxStringLength\(\)`\)$/);
  });

  it('copilot-cli: 131 tool calls in one message', async () => {
    const calls = Array.from({ length: 131 }, (_, i) => call(`r${i}`, 'read', { path: `src/f${i}.ts` }));
    const session = new Session().user('Read them all').assistant([text('Reading.'), ...calls], 'toolUse');
    for (let i = 0; i < 131; i++) session.result(`r${i}`, 'read', { message: { content: [text(codeText(40))] } });
    const { findings } = await sizeFindings('copilot-cli', session.reply());
    const many = findings.filter((f) => f.rule === 'too-many-tool-calls');
    expect(many).toHaveLength(1);
    expect(many[0]!.providerError).toMatch(/array too long\. Expected an array with maximum length 128, but got an array with length 131 instead\.$/);
  });
});
