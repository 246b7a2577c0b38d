import { describe, expect, it } from 'vitest';
import { conversationChecker } from '../../src/pipeline/conversation.js';
import type { Finding } from '../../src/pipeline/finding.js';
import { lineJob } from '../../src/pipeline/line-work.js';
import { planConversations } from '../../src/pipeline/rewrite-conversations.js';
import { configureRules } from '../../src/rules/configure.js';
import { rules } from '../../src/rules/index.js';

const finding = (line: number): Finding => ({ rule: 'missing-tool-result', severity: 'error', line, pointer: '/messages/1', message: 'unanswered' });

// What the other thread found in its half joins this thread's, numbered as lines of the whole file.
describe('LineWork: the other half of a file of conversations', () => {
  it('takes a judged half of any size, each finding moved down by the lines before it', () => {
    const checker = conversationChecker(rules);
    const many = Array.from({ length: 300_000 }, (_, i) => finding(i + 1));
    checker.merge({ findings: many, changing: [] }, 1_000);
    expect(checker.findings.length).toBe(300_000);
    expect([checker.findings[0]!.line, checker.findings.at(-1)!.line]).toEqual([1_001, 301_000]);
  });

  it('takes a planned half: the lines it changes, and the findings of the others by line', () => {
    const plan = planConversations({ mode: 'discard' }, rules);
    const repaired = { start: 700, end: 800, changed: true, bytes: Buffer.from('{}'), findings: [] };
    plan.merge({ findings: [finding(2), finding(2), finding(5)], changing: [3, 4], repaired: [[4, repaired]] }, 10);
    expect([...plan.changing]).toEqual([13, 14]);
    expect([...plan.findings.keys()]).toEqual([12, 15]);
    expect(plan.findings.get(12)!.length).toBe(2);
    // A line the other thread repaired already keeps its bytes' place in the file: only its number moves.
    expect([...plan.repaired]).toEqual([[14, repaired]]);
    expect(plan.results()).toEqual({ findings: [finding(12), finding(12), finding(15)], changing: [13, 14], repaired: [[14, repaired]] });
  });

  it('describes the work as data only for the built-in rules, as configured', () => {
    const configured = configureRules(rules, { 'missing-tool-result': 'warning' });
    expect(lineJob(configured, 'anthropic')).toEqual({ overrides: { 'missing-tool-result': 'warning' }, provider: 'anthropic' });
    expect(lineJob(configured, undefined, { mode: 'synthetic' })).toEqual({ overrides: { 'missing-tool-result': 'warning' }, repair: { mode: 'synthetic' } });
    expect(lineJob([{ ...rules[0]! }], undefined)).toBeUndefined();
  });
});
