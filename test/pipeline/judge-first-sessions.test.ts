import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Encoder, TranscriptFormat } from '../../src/formats/format.js';
import { formats } from '../../src/formats/registry.js';
import { analyze } from '../../src/model/analysis.js';
import { loadTranscriptFile } from '../../src/pipeline/load-file.js';
import { runRules } from '../../src/pipeline/run-rules.js';
import { applyPlan } from '../../src/repair/apply.js';
import { isEmptyPlan, type RepairMode } from '../../src/repair/plan.js';
import { planRepair } from '../../src/repair/planner.js';
import { mendedRuleIds, rules } from '../../src/rules/index.js';
import { sessionFixtures } from '../helpers/session-fixtures.js';

// A repair plans the output of a complete pass again only when a rule whose finding a repair
// mends finds something in it (Rewrite.judgedFirst); otherwise what the rules found is the report.
// That holds only while every such output the planner would still change is one such a rule
// faults: checked here over every session fixture, and each with one of its first lines dropped,
// in both modes.

/** Lines dropped one at a time, from the start of each fixture. */
const DROPPED = 12;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'td-judge-first-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The file, and copies of it each without one of its first lines. */
function variants(file: string): string[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const made = [file];
  for (let drop = 0; drop < Math.min(DROPPED, lines.length - 1); drop++) {
    const copy = join(dir, `${made.length}-${file.split('/').slice(-2).join('-')}`);
    writeFileSync(copy, lines.filter((_, at) => at !== drop).join('\n'));
    made.push(copy);
  }
  return made;
}

/** One pass of a repair written out, then what planning its output wants and whether a rule with a fix faults it. */
async function secondLook(file: string, mode: RepairMode): Promise<{ plans: boolean; faulted: boolean } | undefined> {
  const transcript = await loadTranscriptFile(file, undefined, false);
  const format = formats.find((candidate) => candidate.name === transcript.format);
  if (format?.encoder === undefined || format.conversationOf !== undefined) return undefined;
  const first = planRepair(transcript, { mode, sessionId: 's', file });
  // After a partial plan (records split, item types restored) the next pass is planned whatever the rules say.
  if (isEmptyPlan(first) || first.partial === true) return undefined;
  const out = join(dir, 'pass.jsonl');
  const fd = openSync(out, 'w');
  let output;
  try {
    output = await applyPlan({ path: file, transcript, format: format as TranscriptFormat & { encoder: Encoder } }, first, async (chunk) => {
      for (const piece of Buffer.isBuffer(chunk) ? [chunk] : chunk) writeSync(fd, piece);
    });
  } finally {
    closeSync(fd);
  }
  // Planned as the repair plans a pass it has not read back: without the bytes.
  const second = planRepair(output, { mode, sessionId: 's' });
  const faulted = runRules(analyze(output), rules).some((finding) => mendedRuleIds.has(finding.rule));
  return { plans: !isEmptyPlan(second) || second.needsBytes === true, faulted };
}

describe('judging a pass first', () => {
  it('finds something a repair mends in every output the planner would change again', async () => {
    const unflagged: string[] = [];
    let looked = 0;
    let planned = 0;
    for (const fixture of sessionFixtures()) {
      for (const file of variants(fixture)) {
        for (const mode of ['discard', 'synthetic'] as const) {
          const seen = await secondLook(file, mode);
          if (seen === undefined) continue;
          looked += 1;
          if (!seen.plans) continue;
          planned += 1;
          if (!seen.faulted) unflagged.push(`${mode} ${file}`);
        }
      }
    }
    expect(unflagged).toEqual([]);
    // Enough outputs, and among them some a second pass changes, for the check to mean something.
    expect(looked).toBeGreaterThan(500);
    expect(planned).toBeGreaterThan(5);
  }, 120_000);
});
