import { describe, expect, it } from 'vitest';
import { assistant, jsonl, line, meta, output, reasoning, resetClock, turnContext, user, type Line } from '../../formats/codex/rollout.js';
import { compact, replayedLines } from './compact.js';

const environment = (): Line => line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>\n  <cwd>/workspace/demo</cwd>\n</environment_context>' }] });
const developer = (): Line => line('response_item', { type: 'message', role: 'developer', content: [{ type: 'input_text', text: '<permissions instructions>read-only</permissions instructions>' }] });
const shell = (id: string, command: string): Line => line('response_item', { type: 'function_call', name: 'shell_command', arguments: JSON.stringify({ command }), call_id: id });
const patch = (id: string, path: string): Line =>
  line('response_item', { type: 'custom_tool_call', status: 'completed', call_id: id, name: 'apply_patch', input: `*** Begin Patch\n*** Update File: ${path}\n@@\n-a\n+b\n*** End Patch` });
const tokens = (total: number): Line => line('event_msg', { type: 'token_count', info: { total_token_usage: { input_tokens: total, total_tokens: total }, last_token_usage: { input_tokens: total, total_tokens: total } } });

function rollout(turns: number): string {
  resetClock();
  const lines: Line[] = [meta(), developer(), environment()];
  for (let t = 0; t < turns; t++) {
    lines.push(turnContext(), user(`request ${t}: make the tests pass`), reasoning(), shell(`call_sh_${t}`, `cat src/part-${t}.rs`), output('function', `call_sh_${t}`));
    lines.push(patch(`call_patch_${t}`, `src/part-${t}.rs`), output('custom', `call_patch_${t}`), assistant(`answer ${t}`), tokens(100_000 * (t + 1)));
  }
  return jsonl(lines);
}

describe('Codex compacted record', () => {
  it('replaces the history before the first kept line, which follows it with every later line unchanged', async () => {
    const original = rollout(4);
    const { text, plan, before, after } = await compact(original, 16);
    const out = text.trimEnd().split('\n');
    const at = out.findIndex((row) => JSON.parse(row).type === 'compacted');
    const record = JSON.parse(out[at]!);
    expect(JSON.parse(out[at + 1]!)).toMatchObject({ type: 'event_msg', payload: { type: 'context_compacted' } });
    // Lines before and after the two new ones are the original's, byte for byte (token counts included).
    expect([...out.slice(0, at), ...out.slice(at + 2)]).toEqual(original.trimEnd().split('\n'));
    // The history Codex resumes with: the initial context, then the summary as a user message.
    const history = record.payload.replacement_history;
    expect(history.map((item: Line) => item.role)).toEqual(['developer', 'user', 'user']);
    expect(history[1].content[0].text).toContain('<environment_context>');
    expect(history[2].content[0].text).toContain(plan.summary);
    expect(record.payload.message).toBe(history[2].content[0].text);
    expect(JSON.parse(out[at + 2]!).payload).toMatchObject({ type: 'message', role: 'user' });
    // Our model replays the compaction, then every entry kept, and the rest pairs.
    expect(after.replay.context.at(0).kind).toBe('compaction');
    expect(after.replay.context.length).toBe(before.replay.context.length - plan.keepFrom + 1);
    expect(replayedLines(after).slice(1).map((n) => out[n - 1])).toEqual(replayedLines(before).slice(plan.keepFrom).map((n) => original.split('\n')[n - 1]));
    expect(after.replay.pairing.problems ?? []).toHaveLength(0);
  });

  it('summarises the prompts, the commands run and the files patched before the cut', async () => {
    const { plan } = await compact(rollout(4), 16);
    expect(plan.summary).toContain('1. request 0: make the tests pass');
    expect(plan.summary).toContain('cat src/part-1.rs');
    expect(plan.summary).toContain('- src/part-0.rs');
    expect(plan.summary).not.toContain('environment_context');
    expect(plan.summary).not.toContain('request 3');
  });
});
