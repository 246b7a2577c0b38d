import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanFile } from '../src/pipeline/scan.js';
import { rules } from '../src/rules/index.js';

const dir = join(import.meta.dirname, '..', 'fixtures');
const ruleFixtures = readdirSync(join(dir, 'pi')).filter((name) => rules.some((rule) => `${rule.meta.id}.jsonl` === name));

/** Fixtures that are not named after a rule, with exactly what they must produce. */
const special: Record<string, string[]> = {
  'pi/healthy.jsonl': [],
  'pi/v1-legacy.jsonl': [],
  'pi/legacy-shapes.jsonl': ['30 non-canonical-tool-call warning', '31 non-canonical-tool-result warning', '36 non-canonical-tool-call warning'],
  'pi/abandoned-branch.jsonl': ['9 missing-tool-result warning'],
  'pi/v1-missing-result.jsonl': ['3 missing-tool-result error'],
  'pi/tail-tool-call.jsonl': ['5 missing-tool-result error'],
  'demo/d7e72770-c025-4796-baf0-d4d1f2035ea7.jsonl': [],
  'demo/f787cf70-51e3-4c8b-9204-2dfbea70be02.jsonl': [
    '9 partial-tool-call warning',
    '10 result-for-failed-turn error',
    '12 empty-error-turn warning',
    '14 empty-error-turn warning',
    '16 empty-error-turn warning',
  ],
  'demo/e0b11ca0-75b4-4eef-8961-955e55832882.jsonl': ['12 duplicate-tool-result error', '14 displaced-tool-result error'],
  'demo/a72cb7ff-ffa6-4f12-993c-b24cb1219e7b.jsonl': ['15 torn-final-line error'],
  'codex/healthy.jsonl': [],
  'codex/healthy-paginated.jsonl': [],
  'codex/missing-tool-result.jsonl': ['7 missing-tool-result error'],
  'codex/missing-custom-tool-result.jsonl': ['7 missing-tool-result error'],
  'codex/orphan-tool-result.jsonl': ['8 orphan-tool-result error'],
  'codex/output-before-call.jsonl': ['7 displaced-tool-result error'],
  'codex/duplicate-tool-result.jsonl': ['8 duplicate-tool-result error'],
  'codex/duplicate-tool-call-id.jsonl': ['11 duplicate-tool-call-id error'],
  'codex/invalid-header.jsonl': ['1 invalid-header error'],
  'codex/missing-header.jsonl': ['1 invalid-header error'],
  'codex/ordinal-reused.jsonl': ['9 sequence-out-of-order warning'],
  'codex/ordinal-missing.jsonl': ['10 missing-sequence-number error'],
  'codex/compacted-history-unanswered.jsonl': ['33 kept-history-pairing error'],
  'codex/missing-item-type.jsonl': ['4 missing-item-type error', '7 missing-tool-result error', '9 missing-item-type error'],
  'gemini-cli/healthy.jsonl': [],
  'gemini-cli/missing-tool-result.jsonl': ['7 kept-history-pairing error', '7 unanswered-final-turn info'],
  'gemini-cli/duplicate-responses.jsonl': ['4 kept-history-pairing error', '4 kept-history-pairing error'],
  'gemini-cli/torn-final-line.jsonl': ['5 kept-history-pairing error', '7 torn-final-line error'],
  'gemini-cli/rewind-unknown.jsonl': ['8 rewind-to-unknown-message error'],
  'gemini-cli/placeholder-turn.jsonl': ['7 placeholder-turn warning'],
  'gemini-cli/session-2026-03-09T14-00-3f9c2a71.json': ['1 kept-history-pairing error'],
  'gemini-cli/checkpoint-before-refactor.json': ['1 kept-history-pairing error'],
  'gemini-cli/calls-open-history.jsonl': ['7 call-turn-order error'],
  'gemini-cli/result-name-mismatch.jsonl': ['5 tool-result-name-mismatch error'],
  'gemini-cli/blank-text-part.jsonl': ['3 empty-text-block error'],
  'gemini-cli/signed-parts.jsonl': [],
  'gemini-cli/empty-final-turn.jsonl': ['5 empty-final-turn info'],
  'qwen-code/healthy.jsonl': [],
  'qwen-code/missing-tool-result.jsonl': ['3 missing-tool-result error'],
  'qwen-code/orphan-tool-result.jsonl': ['3 orphan-tool-result error'],
  'qwen-code/duplicate-tool-result.jsonl': ['4 duplicate-tool-result error'],
  'qwen-code/unknown-parent.jsonl': ['6 unknown-parent error'],
  'copilot-cli/healthy.jsonl': [],
  'copilot-cli/subagents-interleaved.jsonl': [],
  'copilot-cli/subagent-missing-tool-result.jsonl': ['12 missing-tool-result error'],
  'copilot-cli/subagent-foreign-completion.jsonl': ['12 missing-tool-result error', '18 orphan-tool-result error'],
  'copilot-cli/compaction-background.jsonl': [],
  'copilot-cli/torn-start.jsonl': ['1 invalid-json error', '2 invalid-header error'],
  'copilot-cli/missing-tool-result.jsonl': ['15 missing-tool-result error'],
  'copilot-cli/split-record.jsonl': ['7 invalid-json error'],
  'copilot-cli/nul-bytes.jsonl': ['13 nul-bytes error'],
  'copilot-cli/torn-final-line.jsonl': ['14 torn-final-line error'],
  'copilot-cli/schema-ephemeral.jsonl': ['13 schema-violation warning'],
};

describe('fixtures', () => {
  it('has a fixture for every rule that applies to pi files', () => {
    const missing = rules.map((rule) => rule.meta.id).filter((id) => !ruleFixtures.includes(`${id}.jsonl`));
    // Claude Code's own rules have Claude Code fixtures (test/formats/claude-code.test.ts); numbered lines, lost item types, unreadable parts and kept histories are Codex's (codex/ordinal-*.jsonl, codex/missing-item-type.jsonl, test/formats/codex/client-verdicts.test.ts, codex/compacted-history-unanswered.jsonl); request lines are tested in test/formats/requests; a log's rewinds, placeholders and empty final turns are Gemini CLI's (gemini-cli/*.jsonl); schema breaks are Copilot CLI's (copilot-cli/schema-ephemeral.jsonl).
    // Provider contract rules are tested per provider in test/rules/contract.test.ts; an ending Claude Code answers itself in test/formats/claude-code-verdicts.test.ts.
    const contract = rules.filter((rule) => rule.meta.category === 'contract').map((rule) => rule.meta.id);
    // Size rules need megabytes of session: generated per format in test/rules/size*.test.ts, not kept as fixtures.
    const size = rules.filter((rule) => rule.meta.category === 'size').map((rule) => rule.meta.id);
    // A whole JSON document is no format's file: test/rules/syntax.test.ts and test/cli/repair.test.ts.
    expect(missing).toEqual(['json-document', 'byte-order-mark', 'unknown-format', 'unknown-request-shape', 'schema-violation', 'lost-logical-parent', 'sequence-out-of-order', 'missing-sequence-number', 'missing-item-type', 'rewind-to-unknown-message', 'placeholder-turn', 'empty-final-turn', 'unreadable-content-part', 'orphan-server-tool-result', 'tool-result-not-first', 'kept-history-pairing', ...contract, 'unanswered-final-turn', ...size]);
  });

  for (const name of ruleFixtures) {
    it(`pi/${name} shows its rule and nothing else`, async () => {
      const report = await scanFile(join(dir, 'pi', name));
      expect(report.format).toBe('pi');
      expect(new Set(report.findings.map((finding) => finding.rule))).toEqual(new Set([basename(name, '.jsonl')]));
    });
  }

  for (const [name, expected] of Object.entries(special)) {
    it(`${name} shows exactly its findings`, async () => {
      const report = await scanFile(join(dir, name));
      expect(report.findings.map((f) => `${f.line} ${f.rule} ${f.severity}`)).toEqual(expected);
    });
  }
});
