import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scan } from '../../src/api/scan.js';
import { UserError } from '../../src/errors.js';
import { assertNotLocked } from '../../src/io/lock.js';
import { openSessionWriter, type AbortMode, type SessionWriter, type SessionWriterEvent } from '../../src/session-writer/session-writer.js';
import { deadPid } from '../helpers/processes.js';
import { pairingOf, sessionLines, type SessionLines } from './lines.mjs';

const FORMATS = ['pi', 'claude-code', 'codex'] as const;

interface Open {
  file: string;
  writer: SessionWriter;
  session: SessionLines;
  events: SessionWriterEvent[];
  /** The lines on disk, parsed. */
  lines(): Array<Record<string, unknown>>;
  /** Appends each line in turn. */
  append(...lines: Array<object | object[]>): Promise<void>;
}

async function openNew(format: string, abortMode?: AbortMode): Promise<Open> {
  const file = join(mkdtempSync(join(tmpdir(), 'td-writer-')), 'session.jsonl');
  const events: SessionWriterEvent[] = [];
  const writer = await openSessionWriter(file, { format, abortMode, onEvent: (event) => events.push(event) });
  const session = sessionLines(format);
  const header = session.header();
  if (header !== undefined) await writer.append(header);
  return {
    file,
    writer,
    session,
    events,
    lines: () => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>),
    async append(...lines) {
      for (const line of lines.flat()) await writer.append(line);
    },
  };
}

/** What each line is, in words: header, user, call:<ids>, result:<ids>, aside, reply. */
function shapes(format: string, lines: Array<Record<string, unknown>>): string[] {
  return lines.map((line) => {
    const { calls, results } = pairingOf(format, line);
    if (calls.length > 0) return `call:${calls.join(',')}`;
    if (results.length > 0) return `result:${results.join(',')}`;
    const text = JSON.stringify(line);
    if (line.type === 'session' || line.type === 'session_meta') return 'header';
    if (/"(progress|custom|event_msg)"/.test(text)) return 'aside';
    return /"role":"user"/.test(text) ? 'user' : 'reply';
  });
}

async function errorsIn(file: string): Promise<string[]> {
  const report = await scan(file);
  return report.files.flatMap((entry) => entry.findings.filter((finding) => finding.severity === 'error').map((finding) => `${finding.rule}:${finding.line}`));
}

const headerShapes = (format: string) => (format === 'claude-code' ? [] : ['header']);

describe.each(FORMATS)('openSessionWriter (%s): the seed cases', (format) => {
  it('case 1: abort during a tool writes nothing of the pair', async () => {
    const s = await openNew(format);
    await s.append(s.session.assistantLines([['call_a1', 'read']]));
    expect(s.writer.pendingCallIds()).toEqual(['call_a1']);
    await s.writer.abort('abort');
    expect(s.writer.pendingCallIds()).toEqual([]);
    await s.writer.close();
    expect(shapes(format, s.lines())).toEqual(headerShapes(format));
    expect(s.events).toEqual([{ kind: 'discarded', reason: 'abort', callIds: ['call_a1'], lines: 0 }]);
  });

  it('case 2: failover with one of two results in writes nothing of the pair', async () => {
    const s = await openNew(format);
    await s.append(s.session.assistantLines([['call_f1', 'read'], ['call_f2', 'exec']]), s.session.result('call_f1', 'read'));
    expect(s.writer.pendingCallIds()).toEqual(['call_f2']);
    await s.writer.abort('failover');
    await s.writer.close();
    expect(shapes(format, s.lines())).toEqual(headerShapes(format));
    expect(s.events.map((event) => `${event.kind}:${event.reason}`)).toEqual(['discarded:failover']);
  });

  it('case 3: a rate limit keeps the user message and drops the pair', async () => {
    const s = await openNew(format);
    await s.append(s.session.user('summarise the logs'), s.session.assistantLines([['call_r1', 'read']]));
    await s.writer.abort('rate_limit');
    await s.append(s.session.user('try again'), s.session.reply('Here is the summary.'));
    await s.writer.close();
    expect(shapes(format, s.lines())).toEqual([...headerShapes(format), 'user', 'user', 'reply']);
    expect(await errorsIn(s.file)).toEqual([]);
  });

  it('case 4: a normal pair is written in order, in one write once its last result is in', async () => {
    const s = await openNew(format);
    await s.append(s.session.user('read two files'), s.session.assistantLines([['call_n1', 'read'], ['call_n2', 'read']]), s.session.result('call_n1', 'read'));
    const before = readFileSync(s.file, 'utf8');
    expect(shapes(format, s.lines())).toEqual([...headerShapes(format), 'user']);
    await s.append(s.session.result('call_n2', 'read'));
    const after = readFileSync(s.file, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    const calls = format === 'pi' ? ['call:call_n1,call_n2'] : ['call:call_n1', 'call:call_n2'];
    expect(shapes(format, s.lines())).toEqual([...headerShapes(format), 'user', ...calls, 'result:call_n1', 'result:call_n2']);
    expect(s.events).toEqual([{ kind: 'committed', callIds: ['call_n1', 'call_n2'], lines: calls.length + 2 }]);
    await s.append(s.session.reply('Both read.'));
    await s.writer.close();
    expect(await errorsIn(s.file)).toEqual([]);
  });

  it('case 5: a committed pair stays when the next one is aborted', async () => {
    const s = await openNew(format);
    await s.append(s.session.user('go'), s.session.assistantLines([['call_c1', 'read']]), s.session.result('call_c1', 'read'));
    await s.append(s.session.assistantLines([['call_c2', 'exec']]));
    await s.writer.abort('abort');
    await s.writer.close();
    expect(shapes(format, s.lines())).toEqual([...headerShapes(format), 'user', 'call:call_c1', 'result:call_c1']);
    expect(s.events.map((event) => event.kind)).toEqual(['committed', 'discarded']);
    expect(await errorsIn(s.file)).toEqual([]);
  });
});

describe.each(FORMATS)('openSessionWriter (%s): around the pair', (format) => {
  it('synthetic mode completes an aborted pair with error results in the format\'s own shape, and links what follows after them', async () => {
    const s = await openNew(format, 'synthetic');
    await s.append(s.session.user('go'), s.session.assistantLines([['call_s1', 'read'], ['call_s2', 'exec']]), s.session.result('call_s1', 'read'));
    await s.writer.abort('timeout');
    await s.append(s.session.user('and now?'), s.session.reply('Done.'));
    await s.writer.close();
    const calls = format === 'pi' ? ['call:call_s1,call_s2'] : ['call:call_s1', 'call:call_s2'];
    expect(shapes(format, s.lines())).toEqual([...headerShapes(format), 'user', ...calls, 'result:call_s1', 'result:call_s2', 'user', 'reply']);
    expect(s.events).toEqual([{ kind: 'completed', reason: 'timeout', callIds: ['call_s1', 'call_s2'], lines: calls.length + 2 }]);
    const synthetic = JSON.stringify(s.lines().at(-3));
    expect(synthetic).toMatch(format === 'pi' ? /"isError":true/ : format === 'claude-code' ? /"is_error":true/ : /"output":"aborted"/);
    expect(await errorsIn(s.file)).toEqual([]);
  });

  it('bookkeeping that arrives while a pair is held is written with it, in the order given', async () => {
    const s = await openNew(format);
    await s.append(s.session.user('go'), s.session.assistantLines([['call_b1', 'read']]), s.session.aside());
    expect(shapes(format, s.lines())).toEqual([...headerShapes(format), 'user']);
    await s.append(s.session.result('call_b1', 'read'), s.session.aside());
    await s.writer.close();
    expect(shapes(format, s.lines())).toEqual([...headerShapes(format), 'user', 'call:call_b1', 'aside', 'result:call_b1', 'aside']);
  });

  it('a discarded pair keeps the bookkeeping held with it, linked past the dropped lines', async () => {
    const s = await openNew(format);
    await s.append(s.session.user('go'), s.session.assistantLines([['call_k1', 'read']]), s.session.aside());
    await s.writer.abort('abort');
    await s.append(s.session.user('again'), s.session.reply('Fine.'));
    await s.writer.close();
    expect(shapes(format, s.lines())).toEqual([...headerShapes(format), 'user', 'aside', 'user', 'reply']);
    expect(s.events).toEqual([{ kind: 'discarded', reason: 'abort', callIds: ['call_k1'], lines: 1 }]);
    expect(await errorsIn(s.file)).toEqual([]);
  });

  it('a prompt that arrives before the results ends the pair first (the next turn), as OpenClaw\'s guard does', async () => {
    const s = await openNew(format);
    await s.append(s.session.user('go'), s.session.assistantLines([['call_t1', 'read']]), s.session.user('never mind, stop'));
    expect(s.events.map((event) => `${event.kind}:${event.reason}`)).toEqual(['discarded:next turn']);
    await s.append(s.session.reply('Stopped.'));
    await s.writer.close();
    expect(shapes(format, s.lines())).toEqual([...headerShapes(format), 'user', 'user', 'reply']);
    expect(await errorsIn(s.file)).toEqual([]);
  });

  it('a pair whose calls and results do not match one to one (two calls with one id) is dropped at commit, never written', async () => {
    const s = await openNew(format);
    await s.append(s.session.user('go'), s.session.assistantLines([['call_i1', 'read'], ['call_i1', 'read']]), s.session.result('call_i1', 'read'));
    await s.writer.close();
    expect(shapes(format, s.lines())).toEqual([...headerShapes(format), 'user']);
    expect(s.events).toEqual([{ kind: 'discarded', reason: 'integrity', callIds: ['call_i1', 'call_i1'], lines: 0 }]);
  });

  it('close settles a held pair as an abort would (reason close), and releases the lock', async () => {
    const s = await openNew(format, 'synthetic');
    await s.append(s.session.assistantLines([['call_z1', 'read']]));
    expect(existsSync(`${s.file}.lock`)).toBe(true);
    await s.writer.close();
    await s.writer.close();
    expect(existsSync(`${s.file}.lock`)).toBe(false);
    expect(s.events.map((event) => `${event.kind}:${event.reason}`)).toEqual(['completed:close']);
    await expect(s.writer.append(s.session.user('late'))).rejects.toThrow(/session writer of .* is closed/);
  });
});

describe('openSessionWriter: the file and its lock', () => {
  it('holds <file>.lock with its pid while open, so repair --in-place and a second writer are refused', async () => {
    const s = await openNew('pi');
    expect(JSON.parse(readFileSync(`${s.file}.lock`, 'utf8'))).toMatchObject({ pid: process.pid });
    await expect(assertNotLocked(s.file, false)).rejects.toThrow(`locked by running process ${process.pid}`);
    await expect(openSessionWriter(s.file, { format: 'pi' })).rejects.toThrow(new RegExp(`session\\.jsonl is locked by running process ${process.pid}`));
    await s.writer.close();
    const again = await openSessionWriter(s.file, { format: 'pi' });
    await again.close();
  });

  it('takes over the lock a killed writer left (its pid is dead)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'td-writer-stale-')), 'session.jsonl');
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: await deadPid(), createdAt: '2026-11-26T08:00:00.000Z' }));
    const writer = await openSessionWriter(file, { format: 'codex' });
    expect(JSON.parse(readFileSync(`${file}.lock`, 'utf8')).pid).toBe(process.pid);
    await writer.close();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('continues a file: the first append starts a new line after a last line without one, and earlier lines stay byte for byte', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'td-writer-continue-')), 'session.jsonl');
    const session = sessionLines('pi', 'c0ffee00');
    const start = `${JSON.stringify(session.header())}\n${JSON.stringify(session.user('first'))}`;
    writeFileSync(file, start);
    const writer = await openSessionWriter(file, { format: 'pi' });
    await writer.append(JSON.stringify(session.reply('second')));
    await writer.close();
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith(`${start}\n`)).toBe(true);
    expect(text.split('\n')).toHaveLength(4);
    expect(await errorsIn(file)).toEqual([]);
  });

  it.each<[AbortMode, number]>([
    ['discard', 4],
    ['synthetic', 6],
  ])('numbers the lines of a numbered Codex rollout on after the last one (%s)', async (abortMode, next) => {
    const file = join(mkdtempSync(join(tmpdir(), 'td-writer-ordinal-')), 'rollout.jsonl');
    const session = sessionLines('codex');
    let ordinal = 0;
    const numbered = (line: object) => ({ ...line, ordinal: ordinal++ });
    writeFileSync(file, [session.header()!, session.user('first'), session.reply('ok')].map((line) => `${JSON.stringify(numbered(line))}\n`).join(''));
    const writer = await openSessionWriter(file, { format: 'codex', abortMode });
    await writer.append(numbered(session.user('go')));
    await writer.append(numbered(session.assistantLines([['call_o1', 'read']])[0]!));
    await writer.abort('abort');
    await writer.append(numbered(session.user('again')));
    await writer.close();
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { ordinal: number });
    expect(lines.map((line) => line.ordinal)).toEqual(Array.from({ length: next + 1 }, (_, i) => i));
    expect(await errorsIn(file)).toEqual([]);
  });

  it('writes a JSON line given as text byte for byte, and one spread over several lines on one line', async () => {
    const s = await openNew('codex');
    const line = '{"timestamp":"2026-11-26T09:00:00.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"x"}]},"n":1.50}';
    await s.writer.append(line);
    await s.writer.append('{"timestamp":"2026-11-26T09:00:01.000Z",\n"type":"event_msg","payload":{"type":"token_count"}}');
    await s.writer.close();
    const text = readFileSync(s.file, 'utf8').split('\n');
    expect(text[1]).toBe(line);
    expect(text[2]).toBe('{"timestamp":"2026-11-26T09:00:01.000Z","type":"event_msg","payload":{"type":"token_count"}}');
  });

  it.each([
    ['text that is not JSON', 'codex', '{"timestamp":', /^not a JSON line: \{"timestamp":$/],
    ['a line of another format', 'codex', { type: 'message', message: { role: 'user', content: 'hi' } }, /^not a codex session line: /],
  ])('refuses %s with a UserError and stays usable', async (_, format, entry, message) => {
    const s = await openNew(format);
    const error = await s.writer.append(entry).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toMatch(message);
    await s.append(s.session.user('still here'));
    await s.writer.close();
    expect(shapes(format, s.lines())).toEqual(['header', 'user']);
  });

  it.each([
    ['a format that is not one session per file', { format: 'requests' }, /format must be one of pi, claude-code, .*, not "requests"/],
    ['an unknown abort mode', { format: 'pi', abortMode: 'keep' as AbortMode }, /abortMode must be discard or synthetic, not "keep"/],
  ])('refuses %s', async (_, options, message) => {
    const file = join(mkdtempSync(join(tmpdir(), 'td-writer-bad-')), 'session.jsonl');
    await expect(openSessionWriter(file, options)).rejects.toThrow(message);
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('writes through a symlink: the link stays a link and the lock is beside the real file, also when a pair is written by copy', async () => {
    const real = join(mkdtempSync(join(tmpdir(), 'td-writer-real-')), 'real.jsonl');
    const link = join(mkdtempSync(join(tmpdir(), 'td-writer-link-')), 'link.jsonl');
    symlinkSync(real, link);
    const writer = await openSessionWriter(link, { format: 'pi' });
    expect(JSON.parse(readFileSync(`${real}.lock`, 'utf8')).pid).toBe(process.pid);
    const session = sessionLines('pi');
    for (const line of [session.header(), session.user('go'), ...session.assistantLines([['call_l1', 'read']])]) await writer.append(line);
    const result = session.result('call_l1', 'read') as { message: { content: Array<{ text: string }> } };
    result.message.content[0]!.text = 'x'.repeat(10_000);
    await writer.append(result);
    await writer.close();
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(shapes('pi', readFileSync(real, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)))).toEqual(['header', 'user', 'call:call_l1', 'result:call_l1']);
    expect(existsSync(`${real}.lock`)).toBe(false);
  });

  it('refuses a FIFO, also behind a symlink, at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-writer-fifo-'));
    execFileSync('mkfifo', [join(dir, 'fifo.jsonl')]);
    symlinkSync(join(dir, 'fifo.jsonl'), join(dir, 'link.jsonl'));
    for (const name of ['fifo.jsonl', 'link.jsonl']) await expect(openSessionWriter(join(dir, name), { format: 'pi' })).rejects.toThrow(/not a regular file/);
    expect(existsSync(join(dir, 'fifo.jsonl.lock'))).toBe(false);
  });

  it('refuses a folder and a missing folder, leaving no lock behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-writer-odd-'));
    mkdirSync(join(dir, 'folder.jsonl'));
    await expect(openSessionWriter(join(dir, 'folder.jsonl'), { format: 'pi' })).rejects.toThrow(/folder\.jsonl: not a regular file/);
    await expect(openSessionWriter(join(dir, 'missing', 's.jsonl'), { format: 'pi' })).rejects.toThrow(UserError);
    expect(existsSync(join(dir, 'folder.jsonl.lock'))).toBe(false);
  });
});
