import { Chalk } from 'chalk';
import type { ExplainResult } from '../explain/result.js';
import { describeRepair } from './repair-text.js';
import { describeSlim } from './slim-text.js';
import { terminalText as t } from './terminal-text.js';

/**
 * `explain` for people: what the provider said, where in which session, and the command that
 * fixes it. Ids come from the pasted error and paths and messages from the sessions, so every
 * string is made safe for the terminal before the colours are added.
 */
export function explainText(result: ExplainResult, color: boolean): string {
  return colouredText(safeStrings(result), color);
}

/** A copy with every string in it made safe for the terminal (the result is plain JSON data). */
function safeStrings<T>(value: T): T {
  if (typeof value === 'string') return t(value) as T;
  if (Array.isArray(value)) return value.map(safeStrings) as T;
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, safeStrings(item)])) as T;
  return value;
}

function colouredText(result: ExplainResult, color: boolean): string {
  const c = new Chalk({ level: color ? 1 : 0 });
  const { error, search, session } = result;
  const at = [
    error.messageIndex === undefined ? undefined : `message ${error.messageIndex}`,
    error.blockIndex === undefined ? undefined : `block ${error.blockIndex}`,
    error.ids.length === 0 ? undefined : error.ids.join(', '),
  ].filter(Boolean);
  const out = [`${c.bold(error.provider)}${at.length > 0 ? c.dim(` (${at.join(', ')})`) : ''}: ${error.meaning}`];
  if (error.rules.length === 0) {
    out.push(`No transcript-doctor rule checks this yet, so no session can be matched to it.`);
    return out.join('\n') + '\n';
  }
  if (session === undefined) {
    out.push(c.yellow(`No session matches: ${notFound(result)}.`));
    out.push(c.dim(`Looked in ${search.searched.join(', ')} (${plural(search.files, 'session file')}).`));
    return out.join('\n') + '\n';
  }
  const rows: [string, string][] = [
    ['session', c.underline(session.path) + (session.format ? c.dim(`  (${session.format})`) : '')],
    ['line', `${session.line}${session.pointer ? `  at ${session.pointer}` : ''}`],
    ['finding', session.message],
    ...(session.measured === undefined ? [] : [['measured', measuredText(session.measured)] as [string, string]]),
    ['rule', `${session.rule}  ${c.dim(`(${session.docs.command} · ${session.docs.file})`)}`],
    ['fix', c.green(session.fix)],
  ];
  for (const [label, value] of rows) out.push(`  ${label.padEnd(8)} ${value}`);
  if (result.fixed?.slim !== undefined) {
    const [, before, after] = describeSlim(result.fixed.slim);
    const where = result.fixed.backupPath === undefined ? '' : ` (backup: ${result.fixed.backupPath})`;
    out.push(`  ${'done'.padEnd(8)} ${c.green(result.fixed.changed ? `slimmed${where}` : 'nothing to slim: it already fits')}`);
    out.push(`  ${''.padEnd(8)} ${before}`, `  ${''.padEnd(8)} ${after}`);
  } else if (result.fixed !== undefined) {
    const left = result.fixed.remaining === 0 ? 'no errors left' : `${plural(result.fixed.remaining, 'error')} left (transcript-doctor scan shows them)`;
    out.push(`  ${'done'.padEnd(8)} ${c.green(describeRepair(result.fixed, false, session.path))}; ${left}`);
  }
  if (result.others.length > 0) {
    out.push(c.dim(`Also possible: ${result.others.map((other) => `${other.path}:${other.line} (${other.rule})`).join(', ')}`));
  }
  if (search.method === 'size') {
    out.push(c.dim(`Size errors name no id: this is the best of the ${plural(search.scanned, 'newest session')} measured (the figures the error quotes, then the message index, then the newest).`));
  }
  if (search.method === 'recent') {
    out.push(c.dim(`The error names no id: this is the best of the ${plural(search.scanned, 'newest session')} scanned (same problem, then the same message index, then the newest).`));
  }
  return out.join('\n') + '\n';
}

/** One JSON document. */
export function explainJson(result: ExplainResult): string {
  return JSON.stringify(result, null, 2) + '\n';
}

/** The measured request in a line: tokens as a range (the estimate runs low), against the window, and the body. */
function measuredText(measured: NonNullable<NonNullable<ExplainResult['session']>['measured']>): string {
  const window = measured.window === undefined ? '' : ` of a ${measured.window}-token window${measured.model === undefined ? '' : ` (${measured.model})`}`;
  return `${measured.tokens}–${measured.high} tokens${window}; ${measured.bytes} bytes; ${plural(measured.mediaCount, 'image or PDF page', 'images and PDF pages')}`;
}

function notFound({ error, search }: ExplainResult): string {
  if (search.method === 'size') return `none of the ${plural(search.scanned, 'newest session')} measured comes near ${quoted(error)}`;
  if (search.method === 'recent') return `none of the ${plural(search.scanned, 'newest session')} has a finding of ${error.rules.join(' or ')}`;
  if (search.considered === 0) return `no session file contains ${error.ids.join(' or ')}`;
  return `${plural(search.considered, 'file')} contain${search.considered === 1 ? 's' : ''} ${error.ids.join(' or ')}, but none has a finding of ${error.rules.join(' or ')} for it (already repaired?)`;
}

function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}

/** What a size error quoted, for "no session comes near …". */
function quoted(error: ExplainResult['error']): string {
  const numbers = error.numbers ?? {};
  if (numbers.tokens !== undefined) return `${numbers.tokens} tokens`;
  if (numbers.bytes !== undefined) return `${numbers.bytes} bytes`;
  if (numbers.length !== undefined) return `a length of ${numbers.length}`;
  if (numbers.limit !== undefined) return `the limit of ${numbers.limit}`;
  return 'the limit';
}
