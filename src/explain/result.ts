import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Finding, RepairSummary } from '../pipeline/finding.js';
import { contractProvider } from './locate.js';
import type { QuotedNumbers } from './patterns.js';
import type { ProviderId } from '../providers/provider-id.js';
import type { SlimReport } from '../slim/report.js';
import type { RecognisedError } from './recognise.js';
import type { MeasuredSession, Search } from './search.js';

/** Everything `explain` found, as reporters print it and `--reporter json` gives it. */
export interface ExplainResult {
  error: {
    provider: string;
    /** The rule id in reference/provider-rules.md. */
    ref: string;
    meaning: string;
    text: string;
    messageIndex?: number;
    blockIndex?: number;
    ids: string[];
    /** The figures a size-family error quotes (tokens and limit, bytes, lengths, counts); absent for the others. */
    numbers?: QuotedNumbers;
    rules: string[];
  };
  search: {
    /** Folders or paths looked in. */
    searched: string[];
    files: number;
    method: Search['method'];
    considered: number;
    scanned: number;
    /** Files byte-searched for the ids, newest first: fewer than `files` when a full match ended the search. */
    read: number;
  };
  /** The session and finding behind the error; absent when none matched. */
  session?: SessionMatch;
  /** Other findings that could explain it, best first (a few). */
  others: { path: string; line: number; rule: string }[];
  /** With --fix: what the repair (or, for a size error, slim) did. */
  fixed?: RepairSummary & { remaining: number; slim?: SlimReport };
}

export interface SessionMatch extends Finding {
  path: string;
  format: string | null;
  docs: { command: string; file: string };
  fix: string;
  /** For a size error: what was measured of the session. */
  measured?: MeasuredSession;
}

/** docs/rules in the package (the bundle's copy of this URL loses a trailing slash, so the file is joined on). */
const DOCS = fileURLToPath(new URL('../../docs/rules', import.meta.url));
const OTHERS_SHOWN = 5;

export function explainResult(error: RecognisedError, searched: string[], files: number, search: Search): ExplainResult {
  const result: ExplainResult = {
    error: {
      provider: error.provider,
      ref: error.entry.ref,
      meaning: error.entry.meaning,
      text: error.matched,
      ...(error.messageIndex === undefined ? {} : { messageIndex: error.messageIndex }),
      ...(error.blockIndex === undefined ? {} : { blockIndex: error.blockIndex }),
      ids: error.ids,
      ...(error.entry.size === undefined ? {} : { numbers: error.numbers }),
      rules: [...error.entry.rules],
    },
    search: { searched, files, method: search.method, considered: search.considered, scanned: search.scanned, read: search.read },
    others: search.matches.slice(1, 1 + OTHERS_SHOWN).map(({ file, finding }) => ({ path: file, line: finding.line, rule: finding.rule })),
  };
  const best = search.matches[0];
  if (best !== undefined) {
    result.session = {
      path: best.file,
      format: best.format,
      ...best.finding,
      docs: { command: `transcript-doctor rules ${best.finding.rule}`, file: join(DOCS, `${best.finding.rule}.md`) },
      fix: best.measured === undefined ? fixCommand(best.file, contractProvider(error)) : slimCommand(best.file, best.measured.target, best.measured.provider),
      ...(best.measured === undefined ? {} : { measured: best.measured }),
    };
  }
  return result;
}

/** The command a user can paste: the path quoted for a POSIX shell when it needs to be, and never read as an option. */
export function fixCommand(path: string, provider?: ProviderId): string {
  return `transcript-doctor repair --in-place ${provider === undefined ? '' : `--provider ${provider} `}${shellPath(path)}`;
}

/** For a size error: slim the session in place against the provider that answered, to a token target when its limit is below the window slim would aim under. */
export function slimCommand(path: string, target?: number, provider?: ProviderId): string {
  return `transcript-doctor slim --in-place ${provider === undefined ? '' : `--provider ${provider} `}${target === undefined ? '' : `--target ${target} `}${shellPath(path)}`;
}

function shellPath(path: string): string {
  const safe = path.startsWith('-') ? `./${path}` : path;
  return /^[\w@%+=:,./-]+$/.test(safe) ? safe : `'${safe.replace(/'/g, `'\\''`)}'`;
}
