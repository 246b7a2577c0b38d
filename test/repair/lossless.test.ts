import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { canonicalRewrite, repairRewrite, rewriteInput, type Rewrite } from '../../src/pipeline/rewrite.js';
import { runCli } from '../cli/run-cli.js';

/**
 * Lines a repair or canonicalize rewrites keep every value they do not change spelled as it
 * was: 64-bit ids, 1e400, -0, 1.0, escapes, duplicate keys, and nesting deeper than any
 * recursive serializer can follow. Lines are written by hand so their spelling is known.
 */

const folder = mkdtempSync(join(tmpdir(), 'td-lossless-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function rewrite(jsonl: string, how: Rewrite): Promise<{ output: string; changed: boolean; left: number }> {
  const file = join(folder, `s${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, jsonl);
  const chunks: Buffer[] = [];
  const stream = new Writable({ write: (chunk, _e, done) => (chunks.push(Buffer.from(chunk)), done()) });
  const report = await rewriteInput(file, undefined, how, { kind: 'stream', stream });
  return { output: Buffer.concat(chunks).toString('utf8'), changed: report.repair.changed, left: report.findings.length };
}

const CALL = 'toolu_01Q7mXkV2pLr9sTz4bNc8WdE';
const DEPTH = 100_000;
const DEEP = '['.repeat(DEPTH) + '1.0' + ']'.repeat(DEPTH);
/** Tool arguments as odd writers spell them; a chat id is a 64-bit integer no double holds. */
const ARGS = `{"chat_id":9007199254740993,"limit":1e400,"offset":-0,"ratio":1.0,"mode":"a","mode":"b","to":"caf\\u00e9 \\/ b\\u00fcro","nested":{"ids":[18446744073709551615, -0, 1E5]}}`;
const at = (second: number) => `"timestamp":"2026-04-02T10:00:0${second}.000Z"`;

const header = '{"type":"session","version":3,"id":"lossless-session","timestamp":"2026-04-02T10:00:00.000Z","cwd":"/workspace/demo"}';
const user = `{"type":"message","id":"a0000001","parentId":null,${at(1)},"message":{"role":"user","content":"Send it to chat 9007199254740993.","timestamp":1775124001000}}`;
const assistant = (content: string) =>
  `{"type":"message","id":"a0000002","parentId":"a0000001",${at(2)},"message":{"role":"assistant","content":[${content}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":812,"output":64,"cost":{"total":3.40e-3,"input":24E-4}},"stopReason":"toolUse","timestamp":1775124002500}}`;
const result = (idField: string, parent = 'a0000002') =>
  `{"type":"message","id":"a0000003","parentId":"${parent}",${at(3)},"message":{"role":"toolResult","${idField}":"${CALL}","toolName":"send","content":[{"type":"text","text":"sent \\u2713"}],"details":{"message_id":12345678901234567890,"ok":1.0,"ok":-0},"isError":false,"timestamp":1775124004000}}`;
const reply = `{"type":"message","id":"a0000004","parentId":"a0000003",${at(4)},"message":{"role":"assistant","content":[{"type":"text","text":"Done."}],"api":"anthropic-messages","provider":"anthropic","model":"claude-sonnet-4-5","usage":{"input":900,"output":5},"stopReason":"stop","timestamp":1775124005000}}`;

describe('lossless rewrites: pi', () => {
  it('canonicalize renames the legacy fields and changes nothing else', async () => {
    const call = `{"type":"toolUse","id":"${CALL}","name":"send","input":${ARGS}}`;
    const lines = [header, user, assistant(`{"type":"text","text":"Sending."},${call}`), result('toolUseId'), reply];
    const { output, changed, left } = await rewrite(lines.join('\n') + '\n', canonicalRewrite);
    const expected = [...lines];
    expected[2] = assistant(`{"type":"text","text":"Sending."},{"type":"toolCall","id":"${CALL}","name":"send","arguments":${ARGS}}`);
    expected[3] = result('toolCallId');
    expect(changed).toBe(true);
    expect(left).toBe(0);
    expect(output).toBe(expected.join('\n') + '\n');
    expect((await rewrite(output, canonicalRewrite)).changed).toBe(false);
  });

  it('repair drops a blank block and relinks a lost parent, keeping every other byte', async () => {
    const call = `{"type":"toolCall","id":"${CALL}","name":"send","arguments":${ARGS}}`;
    const lines = [header, user, assistant(`{"type":"text","text":" "}, {"type":"text","text":"Sending."},${call}`), result('toolCallId', 'gone0001'), reply];
    const { output, changed, left } = await rewrite(lines.join('\n') + '\n', repairRewrite('discard'));
    const expected = [header, user, assistant(`{"type":"text","text":"Sending."},${call}`), result('toolCallId'), reply];
    expect(changed).toBe(true);
    expect(left).toBe(0);
    expect(output).toBe(expected.join('\n') + '\n');
  });

  it('the CLI, reading standard input, writes the same bytes (a quick run of harden/values.mjs)', async () => {
    const legacy = `{"type":"toolUse","id":"${CALL}","name":"send","input":${ARGS}}`;
    const lines = [header, user, assistant(legacy), result('toolUseId'), reply];
    const canonical = await runCli(['canonicalize', '-'], { input: lines.join('\n') + '\n' });
    expect(canonical.code).toBe(0);
    expect(canonical.stdout).toBe([header, user, assistant(legacy.replace('toolUse', 'toolCall').replace('"input"', '"arguments"')), result('toolCallId'), reply].join('\n') + '\n');
    const relinked = await runCli(['repair', '-'], { input: [header, user, assistant(legacy), result('toolUseId', 'gone0001'), reply].join('\n') + '\n' });
    expect(relinked.code).toBe(0);
    expect(relinked.stdout).toBe(lines.join('\n') + '\n');
  });

  it('a rewritten line nested 100,000 levels deep is rewritten, not skipped', async () => {
    const args = ARGS.replace('"nested":', `"deep":${DEEP},"nested":`);
    const lines = [header, user, assistant(`{"type":"tool_use","id":"${CALL}","name":"send","input":${args}}`), result('toolCallId'), reply];
    const { output, changed } = await rewrite(lines.join('\n') + '\n', canonicalRewrite);
    expect(changed).toBe(true);
    expect(output.split('\n')[2]).toBe(assistant(`{"type":"toolCall","id":"${CALL}","name":"send","arguments":${args}}`));
  });
});

describe('lossless rewrites: Claude Code', () => {
  const envelope = '"isSidechain":false,"userType":"external","cwd":"/workspace/demo","sessionId":"6e3d9b52-4c8f-4a2a-b7e1-9f3c5d0a2b48","version":"2.1.19"';
  const lines = [
    `{"parentUuid":null,${envelope},"type":"user","message":{"role":"user","content":"Run it."},"uuid":"c0de0001-5b2c-4d3e-9f40-6b6b00000001",${at(1)}}`,
    `{"parentUuid":"c0de0001-5b2c-4d3e-9f40-6b6b00000001",${envelope},"type":"assistant","message":{"model":"claude-opus-4-5-20251101","id":"msg_01A","type":"message","role":"assistant","content":[{"type":"tool_use","id":"${CALL}","name":"Bash","input":${ARGS}}],"stop_reason":"tool_use","usage":{"input_tokens":3,"output_tokens":1.0}},"uuid":"c0de0002-5b2c-4d3e-9f40-6b6b00000002",${at(2)}}`,
  ];
  const text = '{"type":"text","text":"and then the tests \\u2014 please"}';
  const toolResult = `{"type":"tool_result","tool_use_id":"${CALL}","content":"sent to 9007199254740993","is_error":false}`;
  const resultLine = (content: string) =>
    `{"parentUuid":"c0de0002-5b2c-4d3e-9f40-6b6b00000002",${envelope},"type":"user","message":{"role":"user","content":[${content}]},"uuid":"c0de0003-5b2c-4d3e-9f40-6b6b00000003",${at(3)},"toolUseResult":{"stdout":"ok","id":18446744073709551615,"x":-0,"x":1e400}}`;

  it('repair moves the tool result first; both blocks and the rest of the line keep their text', async () => {
    const { output, changed } = await rewrite([...lines, resultLine(`${text}, ${toolResult}`)].join('\n') + '\n', repairRewrite('discard'));
    expect(changed).toBe(true);
    // The conversation ends on those results: the next line is the answer Claude Code gives such a turn itself.
    const written = output.split('\n');
    expect(written.slice(0, 3).join('\n')).toBe([...lines, resultLine(`${toolResult},${text}`)].join('\n'));
    expect(JSON.parse(written[3]!).message.content).toEqual([{ type: 'text', text: 'No response requested.' }]);
  });
});
