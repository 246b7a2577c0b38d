import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanText } from '../../helpers/scan-text.js';
import { repairBytes } from '../../helpers/repair-tester.js';
import { jsonl, meta, resetClock, user } from './rollout.js';

/** Values a careless or hostile writer might put where Codex expects a string or an object. */
const anything = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.string({ maxLength: 8 }),
  fc.constantFrom('', ' ', 'call_x', 'call_y', 'aborted', 'shell_command', 'server', 'client', 'user', 'assistant', 'system'),
  fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }),
  fc.dictionary(fc.constantFrom('type', 'text', 'command'), fc.string({ maxLength: 4 }), { maxKeys: 2 }),
);

const itemTypes = fc.constantFrom(
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'tool_search_call',
  'tool_search_output',
  'web_search_call',
  'ghost_snapshot',
  'compaction',
  'something_new',
);

/** A rollout line with a known envelope and a payload of known keys holding any values. */
const oddLine = fc.record({
  timestamp: fc.constant('2026-01-05T08:00:00.000Z'),
  type: fc.constantFrom('session_meta', 'response_item', 'response_item', 'response_item', 'compacted', 'turn_context', 'event_msg', 'unknown_record'),
  payload: fc.record(
    { type: itemTypes, role: anything, content: anything, call_id: anything, name: anything, arguments: anything, input: anything, output: anything, execution: anything, message: anything, id: anything, action: anything },
    { requiredKeys: ['type'] },
  ),
});

describe('Codex rollouts with odd lines', () => {
  it('scan and repair never throw; repair leaves no error, reaches a fixed point and copies untouched lines byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(oddLine, { minLength: 1, maxLength: 12 }), fc.constantFrom('discard' as const, 'synthetic' as const), async (odd, mode) => {
        resetClock();
        const text = jsonl([meta(), user('start'), ...odd]);
        await scanText(text);
        const once = await repairBytes(text, mode);
        const twice = await repairBytes(once.output, mode);
        expect(twice.output.equals(once.output)).toBe(true);
        const written = new Set(once.output.toString('utf8').split('\n'));
        const rewritten = new Set(once.report.repair.lines.rewritten);
        text.trimEnd().split('\n').forEach((original, i) => {
          if (!once.report.repair.lines.dropped.includes(i + 1) && !rewritten.has(i + 1)) expect(written.has(original), `line ${i + 1} kept as written`).toBe(true);
        });
        expect(once.report.findings.filter((finding) => finding.severity === 'error')).toEqual([]);
      }),
      { numRuns: 80 },
    );
  });
});
