import { readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/model/analysis.js';
import { measureRequest } from '../../src/model/size/measure.js';
import { loadBytes } from '../../src/pipeline/load-transcript.js';
import { runCli } from '../cli/run-cli.js';
import { call, Session, text } from '../helpers/session.js';
import { FakeHome } from './fake-home.js';

// Oversized sessions hidden among decoys in a fake home's session folders; explain, given only
// the provider's size error, must name the session whose figures match, and print the slim fix.

let home: FakeHome;
const files: Record<string, string> = {};
/** Each planted session's estimated input tokens, as scan measures them. */
const estimate: Record<string, { tokens: number; high: number }> = {};
const written: Record<string, string> = {};

/** Source-like text, as a Read of a code file returns it. */
function code(bytes: number, seed: string): string {
  const line = (n: number) => `export function ${seed}_${n}(input: Record<string, number>): number { return Object.values(input).reduce((a, b) => a + b * ${n}, 0); }\n`;
  let out = '';
  for (let n = 0; out.length < bytes; n++) out += line(n);
  return out.slice(0, bytes);
}

/**
 * A session that read `reads` files of `bytes` each, the calls answered, ending on a prompt. Each
 * call turn records the usage a provider would have counted (a system prompt, then about four
 * bytes a token), so the measure anchors on the last one as on real sessions; the last result and
 * the answer after it are what overflowed.
 */
function reading(seed: string, reads: number, bytes: number): string {
  let sent = 0;
  const usage = () => ({ usage: { input: 4000 + Math.round(sent / 4), output: 50, cacheRead: 0, cacheWrite: 0, totalTokens: 4050 + Math.round(sent / 4) } });
  const session = new Session().user('read the whole module and refactor it');
  for (let k = 0; k < reads; k++) {
    const id = `call_${seed}_${k}`;
    session.assistant([text('Let me look.'), call(id, 'read', { path: `src/${seed}/${k}.ts` })], 'toolUse', { message: usage() });
    session.result(id, 'read', { message: { content: [text(code(bytes, `${seed}${k}`))] } });
    sent += bytes;
  }
  return session.assistant([text('I have read it all.')], 'stop', { message: { usage: undefined } }).user('now refactor it').jsonl();
}

/** A PNG header (33 bytes: signature and IHDR) of the given size, padded out to `length` base64 characters. */
function png(width: number, height: number, length: number): string {
  const header = Buffer.alloc(33);
  Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').copy(header, 0);
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  header.set([8, 6, 0, 0, 0], 24);
  return header.toString('base64') + 'A'.repeat(length - 44);
}

/** A session whose one tool call returned a screenshot of `length` base64 characters. */
function screenshot(seed: string, length: number, width = 1600, height = 1000): string {
  const id = `call_${seed}_shot`;
  return new Session()
    .user('take a screenshot of the page')
    .calls(call(id, 'screenshot', { url: 'http://127.0.0.1:3000/' }))
    .result(id, 'screenshot', { message: { content: [{ type: 'image', data: png(width, height, length), mimeType: 'image/png' }] } })
    .reply('Here it is.')
    .user('what does the header say?')
    .jsonl();
}

function measure(jsonl: string): { tokens: number; high: number } {
  const { tokens } = measureRequest(analyze(loadBytes(Buffer.from(jsonl))));
  return { tokens: tokens.tokens, high: tokens.high };
}

function plant(name: string, dir: string, jsonl: string): void {
  files[name] = home.write(dir, `${name}.jsonl`, jsonl);
  written[name] = jsonl;
  estimate[name] = measure(jsonl);
}

function json(stdout: string) {
  return JSON.parse(stdout) as {
    error: { ref: string; numbers: Record<string, number> };
    search: { method: string; scanned: number };
    session?: { path: string; line: number; pointer: string; rule: string; fix: string; measured: { tokens: number; high: number; evidence: string; target?: number } };
  };
}

beforeAll(() => {
  home = new FakeHome();
  home.fill(20, 'older');
  // The session that overflowed, then newer decoys: one about half its size, one twice it, and small ones.
  plant('overflowed', home.pi, reading('big', 12, 60_000));
  plant('half', home.openclaw, reading('half', 6, 60_000));
  plant('double', home.pi, reading('dbl', 24, 60_000));
  plant('screenshot', home.openclaw, screenshot('shot', 6_521_204));
  plant('other-screenshot', home.pi, screenshot('other', 7_340_032));
  plant('wide', home.pi, screenshot('wide', 40_000, 9000, 1200));
  home.fill(20, 'newer');
});

afterAll(() => rmSync(home.home, { recursive: true, force: true }));

async function explain(error: string) {
  const result = await runCli(['explain', error, '--reporter', 'json'], { env: home.env });
  return { ...result, out: result.stdout === '' ? undefined : json(result.stdout) };
}

describe('explain finds the oversized session by the figures in the error', () => {
  it('planted sessions are the sizes the test means', () => {
    expect(estimate.half!.high).toBeLessThan(estimate.overflowed!.tokens);
    expect(estimate.double!.tokens).toBeGreaterThan(estimate.overflowed!.high);
  });

  it("Anthropic's prompt is too long: the session whose estimate brackets the count, not the newer ones beside it", async () => {
    const counted = Math.round(estimate.overflowed!.high * 1.05);
    const { code, stderr, out } = await explain(`prompt is too long: ${counted} tokens > 200000 maximum`);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(out!.error).toMatchObject({ ref: 'anth-prompt-too-long', numbers: { tokens: counted, limit: 200000 } });
    expect(out!.search.method).toBe('size');
    expect(out!.session).toMatchObject({ path: files.overflowed, fix: `transcript-doctor slim --in-place --provider anthropic ${files.overflowed}` });
    // The size rules' own finding (our estimate puts it near the window; the provider counted it over).
    expect(out!.session!.rule).toMatch(/^context-window-(exceeded|near)$/);
    expect(out!.session!.measured.evidence).toContain(`the provider counted ${counted}`);
  });

  it("OpenAI's context length with a 128k limit: the same session, and slim told the target under that limit", async () => {
    const counted = Math.round(estimate.half!.high * 1.05);
    const { code, out } = await explain(`This model's maximum context length is 128000 tokens. However, your messages resulted in ${counted} tokens.`);
    expect(code).toBe(0);
    expect(out!.session).toMatchObject({ path: files.half, fix: `transcript-doctor slim --in-place --provider openai-chat --target 76000 ${files.half}` });
  });

  it('an image of the quoted base64 length inside a tool result: its line and pointer', async () => {
    const { code, out } = await explain('messages.2.content.0.tool_result.content.0.image.source.base64: image exceeds 5 MB maximum: 6521204 bytes > 5242880 bytes');
    expect(code).toBe(0);
    expect(out!.session).toMatchObject({ path: files.screenshot, line: 4, rule: 'image-too-large' });
    expect(out!.session!.pointer).toMatch(/^\/message\/content\/0/);
    expect(out!.session!.fix).toBe(`transcript-doctor slim --in-place --provider anthropic ${files.screenshot}`);
  });

  it('an image over 8000 pixels a side', async () => {
    const { code, out } = await explain('messages.2.content.0.tool_result.content.0.image.source.base64.data: At least one of the image dimensions exceed max allowed size: 8000 pixels');
    expect(code).toBe(0);
    expect(out!.session!.path).toBe(files.wide);
  });

  it('a count no session comes near: recognised, not found (exit 1), and says what was measured', async () => {
    const result = await runCli(['explain', 'The input token count (9000000) exceeds the maximum number of tokens allowed (1048576).'], { env: home.env });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/No session matches: none of the \d+ newest sessions measured comes near 9000000 tokens\./);
  });

  it('the text report shows the measured request and the slim command', async () => {
    const counted = Math.round(estimate.overflowed!.high * 1.05);
    const result = await runCli(['explain', `API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: ${counted} tokens > 200000 maximum"}}`], { env: home.env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`  fix      transcript-doctor slim --in-place --provider anthropic ${files.overflowed}`);
    expect(result.stdout).toMatch(/ {2}measured \d+–\d+ tokens of a 200000-token window \(claude-sonnet-4-5\); \d+ bytes; 0 images and PDF pages/);
    expect(result.stdout).toContain('Size errors name no id');
  });

  it('explain leaves every session as it was', () => {
    for (const [name, file] of Object.entries(files)) expect(readFileSync(file, 'utf8') === written[name], name).toBe(true);
  });
});
