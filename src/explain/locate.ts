import { scanThroughCache } from '../cache/cached-scan.js';
import { openScanCache, type CacheInput } from '../cache/open-cache.js';
import { statSync } from '../io/named-fs.js';
import { IN_FLIGHT, scanFile } from '../pipeline/scan.js';
import { ruleSetFingerprint } from '../rules/fingerprint.js';
import { rules as allRules } from '../rules/index.js';
import type { ProviderId } from '../providers/provider-id.js';
import type { Provider } from './catalogue-entry.js';
import { filesWithIds } from './id-search.js';
import { locateBySize } from './locate-size.js';
import { perfectScore, scoreFinding } from './rank.js';
import type { RecognisedError } from './recognise.js';
import type { Located, Search } from './search.js';

/** Files holding the ids that are scanned at most: an id in more files than this is not an id that tells sessions apart. */
const MAX_ID_FILES = 50;
/** Files byte-searched before the first look at what was found, doubling up to the last size. */
const FIRST_BATCH = 64;
const LAST_BATCH = 2048;
/** For an error that names no id: how many of the newest sessions are scanned for the rule, and how many bytes of them at most. */
const RECENT_SESSIONS = 100;
const RECENT_BYTES = 1 << 30;

/**
 * Finds the session and the finding behind a recognised error. With ids: a byte search picks the
 * files to scan, so only those are parsed; it goes newest first in growing batches and stops once
 * a finding matches the error in every respect (the session that just failed is usually the
 * newest). Without ids: the newest sessions are scanned until one has a finding of the rule at
 * the same message index. A size error: the newest sessions are measured and ranked by its figures.
 */
export async function locate(error: RecognisedError, files: readonly string[], recentBytes = RECENT_BYTES, cache: CacheInput = {}): Promise<Search> {
  if (error.entry.size !== undefined) {
    const recent = newest(files, recentBytes);
    const search = await locateBySize(error, recent);
    return { ...search, matches: ranked(search.matches, recent) };
  }
  if (error.ids.length === 0) {
    const recent = newest(files, recentBytes);
    const { matches, scanned } = await scanForMatches(error, recent, cache);
    return { matches: ranked(matches, recent), method: 'recent', considered: recent.length, scanned, read: 0 };
  }
  const perfect = perfectScore(error);
  const matches: Located[] = [];
  let considered = 0;
  let scanned = 0;
  let read = 0;
  for (let size = FIRST_BATCH; read < files.length && !matches.some((match) => match.score >= perfect); size = Math.min(size * 2, LAST_BATCH)) {
    const batch = files.slice(read, read + size);
    read += batch.length;
    const hits = filesWithIds(batch, error.ids);
    considered += hits.length;
    const found = await scanForMatches(error, hits.slice(0, Math.max(0, MAX_ID_FILES - scanned)).map((hit) => hit.file), cache);
    scanned += found.scanned;
    matches.push(...found.matches);
  }
  return { matches: ranked(matches, files), method: 'ids', considered, scanned, read };
}

/** The newest sessions, up to RECENT_SESSIONS files and `budget` bytes (always at least one): a few huge sessions must not make a guess take minutes. */
function newest(files: readonly string[], budget: number): string[] {
  const chosen: string[] = [];
  let bytes = 0;
  for (const file of files.slice(0, RECENT_SESSIONS)) {
    bytes += sizeOf(file);
    if (chosen.length > 0 && bytes > budget) break;
    chosen.push(file);
  }
  return chosen;
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/**
 * Scans files in order (newest first), a few at a time, stopping once a finding scores all it
 * can. Only the rules that can explain the error run: a candidate costs little more than its reading.
 */
async function scanForMatches(error: RecognisedError, files: readonly string[], cacheInput: CacheInput): Promise<{ matches: Located[]; scanned: number }> {
  const rules = allRules.filter((rule) => error.entry.rules.includes(rule.meta.id));
  const provider = contractProvider(error);
  // A session seen unchanged by an earlier explain of the same rules is answered from the scan cache.
  const cache = files.length === 0 ? undefined : openScanCache(cacheInput, { command: 'explain', rules: ruleSetFingerprint(rules), provider });
  const checkpoints = cache?.checkpoints(undefined);
  const scan = (paths: readonly string[]) =>
    Promise.all(paths.map((file) => scanFile(file, rules, undefined, true, { provider, checkpoints }).then((report) => ({ report }), (error: Error) => ({ error }))));
  const matches: Located[] = [];
  const perfect = perfectScore(error);
  let scanned = 0;
  for (let start = 0; start < files.length; start += IN_FLIGHT) {
    const batch = files.slice(start, start + IN_FLIGHT);
    const outcomes = await scanThroughCache(cache, batch, scan);
    scanned += batch.length;
    for (const outcome of outcomes) {
      if (!('report' in outcome)) continue;
      const report = outcome.report;
      for (const finding of report.findings) {
        const score = scoreFinding(error, finding);
        if (score !== undefined) matches.push({ file: report.path, format: report.format, finding, score });
      }
    }
    if (matches.some((match) => match.score >= perfect)) break;
  }
  return { matches, scanned };
}

/**
 * For an error from a provider's contract (a contract rule explains it): that provider. The
 * session is looked for, and repaired, as that provider judges it, whoever it last talked to.
 */
export function contractProvider(error: RecognisedError): ProviderId | undefined {
  return allRules.some((rule) => rule.meta.category === 'contract' && error.entry.rules.includes(rule.meta.id)) ? JUDGED_AS[error.entry.provider] : undefined;
}

/** The provider whose contract an error's sender checks, for the providers we have a contract for. */
const JUDGED_AS: Partial<Record<Provider, ProviderId>> = {
  Anthropic: 'anthropic',
  'OpenAI Chat': 'openai-chat',
  'OpenAI Responses': 'openai-responses',
  Gemini: 'gemini',
  Mistral: 'mistral',
  'Bedrock Converse': 'bedrock',
};

/** Best score first; among equals, the newer file (earlier in `files`) and the earlier line. */
function ranked(matches: Located[], files: readonly string[]): Located[] {
  const order = new Map(files.map((file, at) => [file, at]));
  return matches.sort((a, b) => b.score - a.score || order.get(a.file)! - order.get(b.file)! || a.finding.line - b.finding.line);
}
