import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestsFormat } from '../../src/formats/requests/index.js';
import { checkConversation, checkShapeless, planConversation, repairConversation, type ConversationRepair } from '../../src/pipeline/conversation.js';
import type { LineRepair } from '../../src/pipeline/line-work.js';
import { rewriteJson } from '../../src/json/rewrite.js';
import type { LineConversation } from '../../src/formats/format.js';
import type { Finding } from '../../src/pipeline/finding.js';
import { planConversations } from '../../src/pipeline/rewrite-conversations.js';
import { PROVIDER_IDS } from '../../src/providers/provider-id.js';
import { isEmptyPlan } from '../../src/repair/plan.js';
import { configureRules } from '../../src/rules/configure.js';
import { mendedRuleIds, rules } from '../../src/rules/index.js';
import { runRules } from '../../src/pipeline/run-rules.js';
// @ts-expect-error the bench's generator is a plain Node script
import { generateRequests } from '../../bench/requests.mjs';

// A repair's first read plans a dataset line only when a rule whose finding a repair mends
// faults it (see planConversations). That holds only while every line a repair would change
// is one such a rule faults: checked here over real-shaped, fixture and mutated lines, and the
// first read's outcome compared with planning every line, as it did before.

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'requests');
const HOWS: LineRepair[] = (['discard', 'synthetic'] as const).flatMap((mode) => [undefined, ...PROVIDER_IDS].map((provider) => (provider === undefined ? { mode } : { mode, provider })));

/** A seeded generator, so a failing line can be made again. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** The line with its conversation's list changed the way an interrupted or hand-edited log is. */
function mutate(text: string, next: () => number): string | undefined {
  const value = JSON.parse(text) as unknown;
  const conversation = requestsFormat.conversationOf!(value);
  if (conversation === undefined || conversation.items.length < 2) return undefined;
  const items = structuredClone(conversation.items) as Array<Record<string, unknown>>;
  const at = Math.floor(next() * items.length);
  const kind = Math.floor(next() * 6);
  if (kind === 0) items.splice(at, 1);
  else if (kind === 1) items.splice(at, 0, structuredClone(items[at]!));
  else if (kind === 2 && at + 1 < items.length) items.splice(at, 2, items[at + 1]!, items[at]!);
  else if (kind === 3) items.unshift(items.pop()!);
  else if (kind === 4) items.length = at + 1;
  else if ('content' in items[at]!) items[at]!.content = next() < 0.5 ? '' : ' ';
  else items.splice(at, 1);
  // Written back in the list's place, whatever the shape calls it.
  const pointer = conversation.pointer.split('/').slice(1);
  let parent = value as Record<string, unknown>;
  for (const key of pointer.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  parent[pointer.at(-1)!] = items;
  return JSON.stringify(value);
}

let dir: string;
let lines: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'td-judge-first-'));
  const file = join(dir, 'dataset.jsonl');
  await generateRequests(file, 400, { seed: 23 });
  const base = [
    ...readFileSync(file, 'utf8').split('\n'),
    ...readdirSync(FIXTURES).flatMap((name) => readFileSync(join(FIXTURES, name), 'utf8').split('\n')),
  ].filter((line) => line.trim() !== '');
  // Lines a rule without a fix faults: a shape no provider has, and an image past every provider's limit.
  const big = 'A'.repeat(6 * 2 ** 20);
  base.push(JSON.stringify({ model: 'x', prompt: 'no list' }), JSON.stringify({ model: 'claude-x', messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: big } }] }] }));
  const next = random(5);
  lines = [...base, ...base.flatMap((line) => [mutate(line, next), mutate(line, next)]).filter((line) => line !== undefined)];
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a dataset line is planned only when a mended rule faults it', () => {
  it('every line a repair changes has a finding of a rule with a fix, in both modes and for every provider', () => {
    let planned = 0;
    for (const [n, text] of lines.entries()) {
      for (const how of HOWS) {
        const conversation = requestsFormat.conversationOf!(JSON.parse(text));
        if (conversation === undefined) continue;
        if (isEmptyPlan(planConversation(conversation, how))) continue;
        planned += 1;
        const found = checkConversation(requestsFormat.conversationOf!(JSON.parse(text))!, n + 1, rules, undefined, undefined, how.provider);
        expect(found.map((finding) => finding.rule).filter((rule) => mendedRuleIds.has(rule)), `line ${n + 1}, ${how.mode}, ${how.provider ?? 'its own provider'}: ${text.slice(0, 200)}`).not.toEqual([]);
      }
    }
    // The mutations break hundreds of lines, each for sixteen ways of repairing.
    expect(planned).toBeGreaterThan(3000);
  });

  it('the first read finds the same changing lines and findings as planning every line, whether it repairs them or leaves them to the second read', () => {
    for (const [how, withBytes] of [[HOWS[0]!, true], [HOWS.at(-1)!, true], [HOWS[0]!, false]] as const) {
      const work = planConversations(how, rules);
      const changing: number[] = [];
      const findings: Finding[] = [];
      lines.forEach((text, n) => {
        const place = { number: n + 1, offset: 0, byteLength: text.length, ...(withBytes ? { bytes: Buffer.from(text) } : {}) };
        work.take(requestsFormat.conversationOf!(JSON.parse(text)), place, requestsFormat);
        // As before judging first: each line planned, and judged from its plan's analysis when that is empty.
        const conversation = requestsFormat.conversationOf!(JSON.parse(text));
        if (conversation === undefined) return void findings.push(...checkShapeless(n + 1, rules));
        const plan = planConversation(conversation, how);
        if (!isEmptyPlan(plan)) changing.push(n + 1);
        else findings.push(...checkConversation(conversation, n + 1, rules, plan.analysis));
      });
      expect(changing.length).toBeGreaterThan(200);
      expect(findings.length).toBeGreaterThan(0);
      expect([...work.changing]).toEqual(changing);
      expect([...work.findings.values()].flat()).toEqual(findings);
      // With their bytes at hand, every changing line is held repaired for the second read.
      expect([...work.repaired.keys()]).toEqual(withBytes ? changing : []);
    }
  });

  it('a repaired line judged instead of planned again ends the same: bytes, counts and what is left, in both modes and for every provider', () => {
    let repaired = 0;
    let judgedInstead = 0;
    for (const [n, text] of lines.entries()) {
      for (const how of HOWS) {
        const repair = (judge: boolean) => {
          let done: ConversationRepair | undefined;
          let located: LineConversation | undefined;
          const rewritten = rewriteJson(text, (value) => {
            if (requestsFormat.conversationOf!(value) === undefined) return;
            done = repairConversation(() => (located = requestsFormat.conversationOf!(value)!), how, undefined, judge ? rules : undefined);
          });
          if (done === undefined) return undefined;
          if (judge && done.findings !== undefined) judgedInstead += 1;
          const findings = done.findings ?? runRules(done.analysis, rules);
          return { text: rewritten.text, changed: done.changed, counts: done.counts, findings: checkConversation(located!, n + 1, rules, done.analysis), judged: findings };
        };
        const [planned, judged] = [repair(false), repair(true)];
        if (planned === undefined || !planned.changed) continue;
        repaired += 1;
        const where = `line ${n + 1}, ${how.mode}, ${how.provider ?? 'its own provider'}`;
        expect(judged, where).toEqual(planned);
      }
    }
    expect(repaired).toBeGreaterThan(3000);
    // Most repairs end at once; the rest are planned again, as before.
    expect(judgedInstead).toBeGreaterThan(repaired * 0.9);
  });

  it('with a mended rule turned off, nothing is judged by the rules left: each line is planned, and unanswered calls still get their answers', () => {
    const how = HOWS.at(-1)!;
    const all = planConversations(how, rules);
    const without = planConversations(how, configureRules(rules, { 'missing-tool-result': 'off' }));
    lines.forEach((text, n) => {
      const place = { number: n + 1, offset: 0, byteLength: text.length };
      all.take(requestsFormat.conversationOf!(JSON.parse(text)), place, requestsFormat);
      without.take(requestsFormat.conversationOf!(JSON.parse(text)), place, requestsFormat);
    });
    expect(without.changing.size).toBeGreaterThan(200);
    expect([...without.changing]).toEqual([...all.changing]);
  });
});
