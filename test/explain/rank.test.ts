import { describe, expect, it } from 'vitest';
import { recognise } from '../../src/explain/recognise.js';
import { perfectScore, scoreFinding } from '../../src/explain/rank.js';
import type { Finding } from '../../src/pipeline/finding.js';
import { providerText } from '../helpers/provider-text.js';

function finding(rule: string, message: string, providerError?: string): Finding {
  return { rule, severity: 'error', line: 3, pointer: '/message/content/1', message, ...(providerError === undefined ? {} : { providerError }) };
}

describe('scoreFinding', () => {
  const error = recognise('messages.4: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1');

  it('needs one of the rules and one of the ids, as a whole token', () => {
    expect(scoreFinding(error, finding('missing-tool-result', 'call toolu_12 has no tool result.'))).toBeUndefined();
    expect(scoreFinding(error, finding('orphan-tool-result', 'Tool result for toolu_1 answers no tool call.'))).toBeUndefined();
    expect(scoreFinding(error, finding('missing-tool-result', '`read` call toolu_1 has no tool result.'))).toBe(101);
  });

  it('adds the message index, as the provider counts it, and the block', () => {
    const at = (messageIndex: number) => finding('missing-tool-result', 'call toolu_1 has no tool result.', providerText('anthropic', 'missing-tool-result', { message: messageIndex, ids: ['toolu_1'] }));
    expect(scoreFinding(error, at(4))).toBe(perfectScore(error));
    expect(scoreFinding(error, at(3))).toBe(101);
    // OpenAI Chat counts the system prompt as message 0.
    const chat = recognise("Invalid parameter: Duplicate value for 'tool_call_id' of 'call_9', in messages[5] and messages[6].");
    const duplicate = finding('duplicate-tool-result', 'Synthetic result for call call_9; it is already answered on line 9.', providerText('anthropic', 'duplicate-tool-result', { message: 4, block: 0, id: 'call_9' }));
    expect(scoreFinding(chat, duplicate)).toBe(111);
  });

  it('without ids, the rule alone matches and the index ranks', () => {
    const unique = recognise('messages.7.content.2: `tool_use` ids must be unique');
    const reused = (m: number, b: number) => finding('duplicate-tool-call-id', 'call toolu_9 reuses the id of a call on line 2.', providerText('anthropic', 'duplicate-tool-call-id', { message: m, block: b }));
    expect(scoreFinding(unique, reused(7, 2))).toBe(perfectScore(unique));
    expect(scoreFinding(unique, reused(7, 1))).toBe(11);
    expect(scoreFinding(unique, reused(3, 2))).toBe(1);
  });
});
