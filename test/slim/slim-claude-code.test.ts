import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formats } from '../../src/formats/registry.js';
import { analyze } from '../../src/model/analysis.js';
import { measureRequest } from '../../src/model/size/measure.js';
import { loadBytes } from '../../src/pipeline/load-transcript.js';
import { applyPlan } from '../../src/repair/apply.js';
import { planSlim } from '../../src/slim/planner.js';
import { longText, slimText } from './slim-session.js';

type Json = Record<string, any>;

/** A Claude Code session written as Claude Code writes it: one line per block of a response, results in user lines hanging off their call's line. */
class ClaudeSession {
  readonly lines: Json[] = [];
  private n = 0;
  last: string | null = null;

  private push(type: 'user' | 'assistant', message: Json, parent = this.last, extra: Json = {}): string {
    const uuid = `00000000-0000-4000-8000-${String(++this.n).padStart(12, '0')}`;
    this.lines.push({ parentUuid: parent, isSidechain: false, userType: 'external', cwd: '/workspace/demo', sessionId: 'slim-test', version: '2.1.19', type, message, uuid, timestamp: new Date(Date.UTC(2026, 2, 2, 9, 0, this.n)).toISOString(), ...extra });
    this.last = uuid;
    return uuid;
  }

  prompt(content: unknown): this {
    this.push('user', { role: 'user', content });
    return this;
  }

  /** One response: each block its own line, sharing the message id. Returns each block's line uuid. */
  response(id: string, blocks: Json[]): string[] {
    return blocks.map((block) => this.push('assistant', { model: 'claude-sonnet-4-5', id, type: 'message', role: 'assistant', content: [block], stop_reason: null }));
  }

  result(parent: string, callId: string, content: unknown): this {
    this.push('user', { role: 'user', content: [{ type: 'tool_result', tool_use_id: callId, content }] }, parent, { toolUseResult: { stdout: 'kept for the screen' } });
    return this;
  }

  jsonl(): string {
    return this.lines.map((line) => `${JSON.stringify(line)}\n`).join('');
  }
}

const thinkingBlock = (n: number) => ({ type: 'thinking', thinking: `considering step ${n} `.repeat(30), signature: `sig${n}` });

/** Turns of one thinking line, two parallel calls (the first result on a side branch) and an answer. */
function session(turns: number): ClaudeSession {
  const s = new ClaudeSession();
  for (let t = 0; t < turns; t++) {
    s.prompt(`prompt ${t}`);
    const [, first, second] = s.response(`msg_${t}a`, [thinkingBlock(t), { type: 'tool_use', id: `toolu_${t}_1`, name: 'Read', input: { file_path: `/workspace/demo/a${t}.ts` } }, { type: 'tool_use', id: `toolu_${t}_2`, name: 'Bash', input: { command: `grep -r thing src/${t}` } }]);
    s.result(first!, `toolu_${t}_1`, longText(1500, `a${t}`));
    s.result(second!, `toolu_${t}_2`, [{ type: 'text', text: longText(1500, `b${t}`) }]);
    s.response(`msg_${t}b`, [{ type: 'text', text: `answer ${t}` }]);
  }
  return s;
}

describe('slim on Claude Code sessions', () => {
  it('trims results on side branches too, names the tool and its argument, and leaves toolUseResult alone', async () => {
    const { lines, report } = await slimText(session(5).jsonl(), { target: { tokens: 120_000 }, keepTurns: 1 }, 'slim-test.jsonl');
    expect(report.slim?.strategies.map((result) => result.strategy)).toEqual(['old-results', 'thinking']);
    expect(report.slim?.fits).toBe(true);
    const results = lines.filter((line) => line.message?.content?.[0]?.type === 'tool_result');
    expect(results).toHaveLength(10);
    const side = results[0]!.message.content[0].content as string;
    expect(side).toMatch(/from this Read result \(\/workspace\/demo\/a0\.ts\)/);
    const nested = results[1]!.message.content[0].content[0].text as string;
    expect(nested).toMatch(/from this Bash result \(grep -r thing src\/0\)/);
    expect(results[0]!.toolUseResult).toEqual({ stdout: 'kept for the screen' });
    expect(report.findings).toEqual([]);
  });

  it('drops a line that held only thinking after the first edit, and links its child to its parent', async () => {
    const input = session(4);
    const { lines } = await slimText(input.jsonl(), { target: { tokens: 20_000 } }, 'slim-test.jsonl');
    const thinkingLines = lines.filter((line) => line.message?.content?.[0]?.type === 'thinking');
    // Turn 0's thinking came before the first edit (its own results); the latest turn's is kept.
    expect(thinkingLines.map((line) => line.message.id)).toEqual(['msg_0a', 'msg_3a']);
    const byUuid = new Map(lines.map((line) => [line.uuid, line]));
    const call = lines.find((line) => line.message?.content?.[0]?.id === 'toolu_1_1')!;
    const original = input.lines.find((line) => line.message?.content?.[0]?.id === 'toolu_1_1')!;
    const thinkingLine = input.lines.find((line) => line.uuid === original.parentUuid)!;
    expect(byUuid.has(thinkingLine.uuid)).toBe(false);
    expect(call.parentUuid).toBe(thinkingLine.parentUuid);
  });

  it('stubs an image nested in a tool result', async () => {
    const s = new ClaudeSession();
    s.prompt('take a screenshot');
    const [shot] = s.response('msg_1', [{ type: 'tool_use', id: 'toolu_shot', name: 'Screenshot', input: {} }]);
    s.result(shot!, 'toolu_shot', [{ type: 'text', text: 'here' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: `iVBORw0KGgo${'C'.repeat(5_250_000)}` } }]);
    s.response('msg_2', [{ type: 'text', text: 'done' }]);
    const { lines, report } = await slimText(s.jsonl(), {}, 'slim-test.jsonl');
    const content = lines[2]!.message.content[0].content;
    expect(content[0]).toEqual({ type: 'text', text: 'here' });
    expect(content[1]).toEqual({ type: 'text', text: expect.stringMatching(/^\[transcript-doctor slim removed an image here \(image\/png, .* > 5,242,880\)/) });
    expect(report.slim?.fits).toBe(true);
  });

  it("plans no more savings than the output measures: a thinking block's signature, the stubs' UTF-8 bytes", async () => {
    const s = new ClaudeSession();
    for (let t = 0; t < 6; t++) {
      s.prompt(`prompt ${t}`);
      // Long signatures, as real ones are: the measure counts them as bytes without tokens.
      const [, call] = s.response(`msg_${t}a`, [{ type: 'thinking', thinking: `weighing ${t}`, signature: 'S'.repeat(4000) }, { type: 'tool_use', id: `toolu_${t}`, name: 'Read', input: { file_path: `/workspace/demo/a${t}.ts` } }]);
      s.result(call!, `toolu_${t}`, longText(1500, `a${t}`));
      s.response(`msg_${t}b`, [{ type: 'text', text: `answer ${t}` }]);
    }
    const path = join(mkdtempSync(join(tmpdir(), 'slim-estimate-')), 'session.jsonl');
    writeFileSync(path, s.jsonl());
    const transcript = loadBytes(readFileSync(path), undefined, undefined, path);
    const { plan, report } = planSlim(transcript, { target: { tokens: 110_000 }, keepTurns: 1 }, path);
    expect(report.strategies.map((result) => result.strategy)).toEqual(['old-results', 'thinking']);
    const format = formats.find((candidate) => candidate.name === transcript.format)!;
    const output = await applyPlan({ path, transcript, format }, plan, undefined, false);
    const measured = measureRequest(analyze(output)).bytes;
    expect(measured).toBeLessThan(report.before.bytes);
    expect(report.after.bytes).toBeGreaterThanOrEqual(measured);
  });

  it("gets a request under Anthropic's 32 MB body by the signatures it drops with their thinking, and edits none it keeps", async () => {
    const s = new ClaudeSession();
    const signature = (t: number) => `${t}`.padEnd(3_000_000, 'S');
    for (let t = 0; t < 12; t++) {
      s.prompt(`prompt ${t}`);
      const [, call] = s.response(`msg_${t}a`, [{ type: 'thinking', thinking: `weighing ${t}`, signature: signature(t) }, { type: 'tool_use', id: `toolu_${t}`, name: 'Read', input: { file_path: `/workspace/demo/a${t}.ts` } }]);
      s.result(call!, `toolu_${t}`, longText(1500, `a${t}`));
      s.response(`msg_${t}b`, [{ type: 'text', text: `answer ${t}` }]);
    }
    const { lines, report } = await slimText(s.jsonl(), {}, 'slim-test.jsonl');
    const slim = report.slim!;
    expect(slim.before.bytes).toBeGreaterThan(36_000_000);
    expect(slim.target.bytes).toBe(32_000_000);
    expect(slim.fits).toBe(true);
    expect(slim.after.bytes).toBeLessThanOrEqual(32_000_000);
    expect(slim.strategies.find((result) => result.strategy === 'thinking')!.savedBytes).toBeGreaterThanOrEqual(3_000_000);
    // The output scans clean: request-too-large, which the input raised, is gone.
    expect(report.findings).toEqual([]);
    const kept = lines.map((line) => line.message?.content?.[0]).filter((block) => block?.type === 'thinking');
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(12);
    for (const block of kept) expect(block.signature).toBe(signature(Number(block.thinking.split(' ')[1])));
  });
});
