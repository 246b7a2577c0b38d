import type { FileReport } from '../pipeline/finding.js';
import { rules } from '../rules/index.js';
import type { Severity } from '../rules/rule.js';
import { FAIL_CATEGORIES, type FailCategory } from '../verify/verdict.js';
import type { Reporter } from './types.js';
import { version } from '../version.js';


type Level = 'error' | 'warning' | 'note';

const LEVEL: Record<Severity, Level> = { error: 'error', warning: 'warning', info: 'note' };

interface Descriptor {
  id: string;
  level: Level;
  description: string;
  docs?: string;
}

/** verify has no rule objects; its verdicts still need rules for code scanning to group them by. */
const VERIFY_TEXT: Record<FailCategory | 'error', string> = {
  goal_missed: 'The judge found that the answer misses what the user asked.',
  incomplete: 'The judge found that the answer leaves part of the request undone.',
  rule_violation: "The judge found that the answer breaks the user's rules (AGENTS.md, SOUL.md, HEARTBEAT.md).",
  tone_mismatch: 'The judge found that the tone of the answer does not fit the conversation.',
  refusal: 'The judge found that the answer refuses a request it should have carried out.',
  error: 'The judge gave no usable verdict: the call failed or the reply did not end with a verdict line.',
};

/** Every rule a result can name, in the order they are declared. */
const CATALOGUE: readonly Descriptor[] = [
  ...rules.map(({ meta }) => ({ id: meta.id, level: LEVEL[meta.severity], description: meta.description, docs: meta.docs })),
  ...FAIL_CATEGORIES.map((category) => ({ id: `verify/${category}`, level: 'error' as const, description: VERIFY_TEXT[category] })),
  { id: 'verify/error', level: 'warning', description: VERIFY_TEXT.error },
];

interface Pending {
  ruleId: string;
  level: Level;
  text: string;
  uri: string;
  line: number;
  properties: Record<string, unknown>;
}

/** "invalid-json" → "InvalidJson", "verify/goal_missed" → "VerifyGoalMissed". */
function pascalCase(id: string): string {
  return id
    .split(/[^a-zA-Z0-9]+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}

/** SARIF wants a URI reference: a path's spaces, '%' or a colon (read as a scheme) must be percent-encoded. */
function artifactUri(path: string): string {
  return path === '-' ? 'stdin' : path.split('/').map(encodeURIComponent).join('/');
}

/** Findings of a repair carry line numbers of the file written, so that is the file they point into. */
function locatedIn(report: FileReport): string {
  const output = report.repair?.output;
  return output === undefined || output === '-' ? report.path : output;
}

function pending(report: FileReport): Pending[] {
  const uri = artifactUri(locatedIn(report));
  const found = report.findings.map((finding) => ({
    ruleId: finding.rule,
    level: LEVEL[finding.severity],
    text: finding.providerError === undefined ? finding.message : `${finding.message}\n${finding.providerError}`,
    uri,
    line: finding.line,
    properties: finding.healedBy === undefined ? { pointer: finding.pointer } : { pointer: finding.pointer, healedBy: finding.healedBy },
  }));
  const judged = (report.verdicts ?? []).flatMap((verdict) => {
    if (verdict.verdict !== 'FAIL' && verdict.verdict !== 'ERROR') return [];
    const fail = verdict.verdict === 'FAIL';
    return [
      {
        ruleId: fail ? `verify/${verdict.category}` : 'verify/error',
        level: fail ? ('error' as const) : ('warning' as const),
        text: verdict.feedback ?? '',
        uri,
        line: verdict.line,
        properties: { model: verdict.model, latencyMs: verdict.latencyMs, cached: verdict.cached },
      },
    ];
  });
  return [...found, ...judged];
}

/** SARIF 2.1.0 for GitHub code scanning and other SARIF viewers: one run, each rule declared once. */
export const sarifReporter: Reporter = (reports) => {
  const results = reports.flatMap(pending);
  const used = new Set(results.map((result) => result.ruleId));
  const declared = CATALOGUE.filter((rule) => used.has(rule.id));
  const index = new Map(declared.map((rule, i) => [rule.id, i]));
  const document = {
    $schema: 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'transcript-doctor',
            informationUri: 'https://www.npmjs.com/package/transcript-doctor',
            version,
            rules: declared.map((rule) => ({
              id: rule.id,
              name: pascalCase(rule.id),
              shortDescription: { text: rule.description },
              // JSON.stringify drops the undefined ones: verify's rules have no docs beyond one line.
              fullDescription: rule.docs === undefined ? undefined : { text: rule.docs },
              help: rule.docs === undefined ? undefined : { text: rule.docs, markdown: rule.docs },
              defaultConfiguration: { level: rule.level },
            })),
          },
        },
        results: results.map((result) => ({
          ruleId: result.ruleId,
          // Absent only for a rule id no catalogue entry has; SARIF then goes by ruleId alone.
          ruleIndex: index.get(result.ruleId),
          level: result.level,
          message: { text: result.text },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: result.uri },
                // Line 0 means "no line known"; SARIF lines start at 1, so the result points at the file.
                region: result.line >= 1 ? { startLine: result.line } : undefined,
              },
            },
          ],
          properties: result.properties,
        })),
      },
    ],
  };
  return JSON.stringify(document, null, 2) + '\n';
};
