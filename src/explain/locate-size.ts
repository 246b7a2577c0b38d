import { analyze, type Analysis } from '../model/analysis.js';
import { measureRequest } from '../model/size/measure.js';
import { withReadablePath } from '../io/regular-file.js';
import { loadTranscriptFile } from '../pipeline/load-file.js';
import type { Finding } from '../pipeline/finding.js';
import { runRules } from '../pipeline/run-rules.js';
import { IN_FLIGHT } from '../pipeline/scan.js';
import { rules as allRules } from '../rules/index.js';
import type { ProviderId } from '../providers/provider-id.js';
import { judgeSize } from '../providers/size/index.js';
import type { Provider } from './catalogue-entry.js';
import type { RecognisedError } from './recognise.js';
import type { Located, MeasuredSession, Search } from './search.js';
import { scoreSize } from './size-rank.js';
import { DEFAULT_TARGET_SHARE } from '../slim/options.js';

/**
 * Finds the session behind a size error: size errors name no id, so the newest sessions are
 * measured (their replayed request, as `scan` measures it) and ranked by the figures the error
 * quotes (size-rank.ts). Every candidate is read whole once; nothing is written.
 */
export async function locateBySize(error: RecognisedError, files: readonly string[]): Promise<Search> {
  const provider = sizeProvider(error);
  const matches: Located[] = [];
  let scanned = 0;
  for (let start = 0; start < files.length; start += IN_FLIGHT) {
    const batch = files.slice(start, start + IN_FLIGHT);
    const found = await Promise.all(batch.map((file, at) => measureFile(error, file, provider, start + at).catch(() => undefined)));
    scanned += batch.length;
    for (const match of found) if (match !== undefined) matches.push(match);
  }
  return { matches, method: 'size', considered: files.length, scanned, read: 0 };
}

async function measureFile(error: RecognisedError, file: string, provider: ProviderId | undefined, age: number): Promise<Located | undefined> {
  const transcript = await withReadablePath(file, (reading) => loadTranscriptFile(reading));
  if (transcript.format === undefined) return undefined;
  transcript.provider = provider;
  const analysis = analyze(transcript);
  const size = measureRequest(analysis);
  const judge = judgeSize(analysis, size);
  const match = scoreSize(error, { size, judge, age });
  if (match === undefined) return undefined;
  const entry = match.entry ?? lastReplayed(analysis);
  const window = judge.window?.tokens;
  const limit = error.entry.size === 'tokens' ? error.numbers.limit : undefined;
  const measured: MeasuredSession = {
    tokens: size.tokens.tokens,
    high: size.tokens.high,
    ...(size.model === undefined ? {} : { model: size.model }),
    ...(window === undefined ? {} : { window }),
    bytes: size.bytes,
    mediaCount: size.mediaCount,
    evidence: match.evidence,
    ...(provider === undefined ? {} : { provider }),
    ...(limit !== undefined && (window === undefined || limit < window * 0.99) ? { target: Math.floor((limit * DEFAULT_TARGET_SHARE) / 1000) * 1000 } : {}),
  };
  const line = entry === undefined ? 1 : analysis.entries.at(entry).line;
  const pointer = match.pointer ?? '';
  const finding = ruleFinding(error, analysis, line, pointer) ?? { rule: error.entry.rules[0]!, severity: 'error', line, pointer, message: `${capitalised(match.evidence)}.` };
  return { file, format: transcript.format, finding, score: match.score, measured };
}

/**
 * The size rules' own finding at the place matched, when one fires there (its message and the
 * provider's words); a provider that quotes a count has measured what our estimate may put
 * under the limit, so without one the match itself is the finding.
 */
function ruleFinding(error: RecognisedError, analysis: Analysis, line: number, pointer: string): Finding | undefined {
  const rules = allRules.filter((rule) => error.entry.rules.includes(rule.meta.id));
  const findings = runRules(analysis, rules);
  const here = findings.filter((finding) => finding.line === line);
  return here.find((finding) => finding.pointer === pointer) ?? here[0] ?? (error.entry.size === 'tokens' || error.entry.size === 'bytes' || error.entry.size === 'media' ? findings[0] : undefined);
}

/** The last entry the request sends: where a request too big as a whole is shown. */
function lastReplayed(analysis: Analysis): number | undefined {
  const indices = analysis.replay.context.indices;
  return indices.length === 0 ? undefined : indices[indices.length - 1];
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The provider whose limits the session is judged against: the one that answered, when we have
 * its limits; otherwise (a gateway, a local server) the one the session itself talks to.
 */
export function sizeProvider(error: RecognisedError): ProviderId | undefined {
  if (error.entry.provider === 'Anthropic') return error.provider.endsWith('Vertex AI') ? 'vertex' : error.provider.endsWith('Bedrock') ? 'bedrock' : 'anthropic';
  return JUDGED_AS[error.entry.provider];
}

const JUDGED_AS: Partial<Record<Provider, ProviderId>> = {
  'Claude Code': 'anthropic',
  Bedrock: 'bedrock',
  'OpenAI Chat': 'openai-chat',
  'OpenAI Responses': 'openai-responses',
  'Codex CLI': 'openai-responses',
  Gemini: 'gemini',
  Mistral: 'mistral',
};
