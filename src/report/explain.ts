import { Chalk } from 'chalk';
import type { ExplainResult } from '../explain/result.js';
import { describeRepair } from './repair-text.js';
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
    ['rule', `${session.rule}  ${c.dim(`(${session.docs.command} · ${session.docs.file})`)}`],
    ['fix', c.green(session.fix)],
  ];
  for (const [label, value] of rows) out.push(`  ${label.padEnd(8)} ${value}`);
  if (result.fixed !== undefined) {
    const left = result.fixed.remaining === 0 ? 'no errors left' : `${plural(result.fixed.remaining, 'error')} left (transcript-doctor scan shows them)`;
    out.push(`  ${'done'.padEnd(8)} ${c.green(describeRepair(result.fixed, false, session.path))}; ${left}`);
  }
  if (result.others.length > 0) {
    out.push(c.dim(`Also possible: ${result.others.map((other) => `${other.path}:${other.line} (${other.rule})`).join(', ')}`));
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

function notFound({ error, search }: ExplainResult): string {
  if (search.method === 'recent') return `none of the ${plural(search.scanned, 'newest session')} has a finding of ${error.rules.join(' or ')}`;
  if (search.considered === 0) return `no session file contains ${error.ids.join(' or ')}`;
  return `${plural(search.considered, 'file')} contain${search.considered === 1 ? 's' : ''} ${error.ids.join(' or ')}, but none has a finding of ${error.rules.join(' or ')} for it (already repaired?)`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
