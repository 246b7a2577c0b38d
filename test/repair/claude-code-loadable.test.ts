import { describe, expect, it } from 'vitest';
import { repairText } from '../helpers/repair-tester.js';

/**
 * How Claude Code 2.1.328 rebuilds the conversation it resumes, as tried offline with the real
 * client (scripts/client-resume.mjs): it skips a message line whose content holds a part that is
 * not a block; a uuid written twice is the later line's; it resumes from the last line, or, when
 * another line carries a newer timestamp, from the newest line whose chain passes through that
 * last one; it walks parentUuid to the root (a repeat ends the walk) and replays, beside each
 * assistant line on the chain, the results that hang on it.
 */
type Line = Record<string, any>;

function loaded(line: Line): boolean {
  const content = line.message?.content;
  return typeof line.uuid === 'string' && !(Array.isArray(content) && content.some((part: unknown) => part === null || typeof part !== 'object'));
}

function clientLeaf(lines: Line[], byUuid: Map<string, Line>): Line | undefined {
  const rows = lines.filter((line) => loaded(line) && line.isSidechain !== true);
  const last = rows.at(-1);
  if (last === undefined) return undefined;
  // The first row of the newest time: with equal times the last row does not win.
  let newest: Line | undefined;
  for (const row of rows) if (typeof row.timestamp === 'string' && row.timestamp > (newest?.timestamp ?? '')) newest = row;
  if (newest === undefined || newest === last) return last;
  const reaches = (row: Line) => {
    const seen = new Set<string>();
    for (let at: Line | undefined = row; at !== undefined && !seen.has(at.uuid); at = byUuid.get(at.parentUuid)) {
      if (at.uuid === last.uuid) return true;
      seen.add(at.uuid);
    }
    return false;
  };
  let leaf = last;
  for (const row of rows) if (row !== last && row.timestamp >= (leaf === last ? '' : leaf.timestamp) && reaches(row)) leaf = row;
  return leaf;
}

/** The messages the client sends from the file, oldest first. */
function clientReplay(jsonl: string): Line[] {
  const lines = jsonl.split('\n').filter((text) => text.trim() !== '').map((text) => JSON.parse(text) as Line);
  const byUuid = new Map<string, Line>();
  for (const line of lines) if (loaded(line)) byUuid.set(line.uuid, line);
  const chain: Line[] = [];
  const seen = new Set<string>();
  for (let at = clientLeaf(lines, byUuid); at !== undefined && !seen.has(at.uuid); at = byUuid.get(at.parentUuid)) {
    seen.add(at.uuid);
    chain.unshift(at);
  }
  const replay: Line[] = [];
  for (const line of chain) {
    replay.push(line);
    if (line.type !== 'assistant') continue;
    const beside = lines.filter((other) => loaded(other) && other.parentUuid === line.uuid && !seen.has(other.uuid) && isResults(other));
    replay.push(...beside);
  }
  return replay.filter((line) => line.type === 'user' || line.type === 'assistant');
}

function isResults(line: Line): boolean {
  const content = line.message?.content;
  return line.type === 'user' && Array.isArray(content) && content.length > 0 && content.every((block: Line) => block.type === 'tool_result');
}

function blocks(line: Line, type: string): Line[] {
  const content = line.message?.content;
  return Array.isArray(content) ? content.filter((block: Line) => block.type === type) : [];
}

function prompts(replay: Line[]): string[] {
  return replay.filter((line) => line.type === 'user' && !isResults(line)).map((line) => blocks(line, 'text').map((block) => block.text).join(''));
}

/** Calls on the replay without a result after them, and results that answer no call before them. */
function unpaired(replay: Line[]): string[] {
  const open = new Set<string>();
  const problems: string[] = [];
  for (const line of replay) {
    for (const block of blocks(line, 'tool_use')) open.add(block.id);
    for (const block of blocks(line, 'tool_result')) {
      if (!open.delete(block.tool_use_id)) problems.push(`orphan ${block.tool_use_id}`);
    }
  }
  return [...problems, ...[...open].map((id) => `unanswered ${id}`)];
}

const SESSION = '5f0c2d1e-8a47-4b9e-9c3d-2e6f7a8b9c0d';
const at = (step: number) => new Date(Date.UTC(2026, 2, 3, 9, 0, step * 10)).toISOString();

function record(type: 'user' | 'assistant', uuid: string, parentUuid: string | null, step: number, content: unknown[], extra: Line = {}): Line {
  const message = type === 'assistant'
    ? { id: `msg_${uuid}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content, stop_reason: content.some((b: any) => b?.type === 'tool_use') ? 'tool_use' : 'end_turn', stop_sequence: null, usage: { input_tokens: 9, output_tokens: 4 } }
    : { role: 'user', content };
  return { parentUuid, isSidechain: false, userType: 'external', cwd: '/home/dev/shop', sessionId: SESSION, version: '2.1.30', type, message, uuid, timestamp: at(step), ...extra };
}

const text = (value: string) => ({ type: 'text', text: value });
const use = (id: string, command: string) => ({ type: 'tool_use', id, name: 'Bash', input: { command } });
const result = (id: string, output: string) => ({ type: 'tool_result', tool_use_id: id, content: output });

/** Two turns of calls, the second with a call nobody answered, and a last prompt nobody answered. */
function conversation(): Line[] {
  return [
    record('user', 'u-01', null, 0, [text('Count the orders in the fixtures folder')]),
    record('assistant', 'a-02', 'u-01', 1, [text('Counting them.'), use('toolu_01Count', 'ls fixtures/orders | wc -l')]),
    record('user', 'r-03', 'a-02', 2, [result('toolu_01Count', '42')], { toolUseResult: { stdout: '42' } }),
    record('assistant', 'a-04', 'r-03', 3, [text('There are 42 orders.')]),
    record('user', 'u-05', 'a-04', 4, [text('Archive the ones older than March')]),
    record('assistant', 'a-06', 'u-05', 5, [use('toolu_02Find', 'find fixtures/orders -mtime +30'), use('toolu_03Move', 'mv old archive/')]),
    record('user', 'r-07', 'a-06', 6, [result('toolu_02Find', 'order-7.json')], { toolUseResult: { stdout: 'order-7.json' } }),
    record('user', 'u-08', 'r-07', 7, [text('Did the move finish?')]),
  ];
}

const EVERY_PROMPT = ['Count the orders in the fixtures folder', 'Archive the ones older than March', 'Did the move finish?'];

const jsonl = (lines: Line[]) => lines.map((line) => JSON.stringify(line)).join('\n') + '\n';

describe('Claude Code: repair keeps the conversation the client resumes', () => {
  // The shape of a real fixture file: a last line that reuses an earlier uuid (and its time), hangs
  // on nothing, and holds a bare string where a block belongs, so the client does not load it.
  const unloadedCopy = () => {
    const lines = conversation();
    lines.push({ ...record('user', 'r-07', null, 6, ['order-7.json moved']), toolUseResult: 'moved' });
    return jsonl(lines);
  };
  // A last line that rewrites an earlier prompt under its uuid and time: the client keeps the
  // rewrite for that uuid and resumes from the newest line hanging on it.
  const rewrittenPrompt = () => {
    const lines = conversation();
    lines.push(record('user', 'u-05', 'a-04', 4, [text('Archive the ones older than April')]));
    return jsonl(lines);
  };

  it.each([
    ['a last line the client skips, reusing an earlier uuid', unloadedCopy, EVERY_PROMPT],
    ['a last line rewriting an earlier prompt under its uuid', rewrittenPrompt, EVERY_PROMPT.map((p) => p.replace('March', 'April'))],
  ])('Claude Code — %s: the session stays loadable after repair (discard and synthetic)', async (_name, make, loadedPrompts) => {
    const original = make();
    // What the client loads before repair: every prompt, and one call it would have to patch.
    const before = clientReplay(original);
    expect(prompts(before)).toEqual(loadedPrompts);
    expect(unpaired(before)).toEqual(['unanswered toolu_03Move']);
    for (const mode of ['discard', 'synthetic'] as const) {
      const { output } = await repairText(original, mode);
      const after = clientReplay(output);
      // Every prompt the client resumed with is still there, in order, and every call is paired.
      expect(prompts(after), mode).toEqual(prompts(before));
      expect(unpaired(after), mode).toEqual([]);
      const calls = after.flatMap((line) => blocks(line, 'tool_use').map((block) => block.id));
      expect(calls, mode).toEqual(mode === 'discard' ? ['toolu_01Count', 'toolu_02Find'] : ['toolu_01Count', 'toolu_02Find', 'toolu_03Move']);
      // The conversation ends where the client resumes it: the client's own closing turn, after the last prompt.
      expect(after.at(-1)?.type, mode).toBe('assistant');
      expect(prompts(after).at(-1), mode).toBe('Did the move finish?');
      expect((await repairText(output, mode)).report.repair.changed, mode).toBe(false);
    }
  });

  // A response streamed over two lines that share its message id: its (unsigned) thinking, then
  // a call nobody answered. Claude Code skips a line holding only thinking and answers the results
  // before it with "No response requested." itself: discarding the call takes the thinking too.
  it('Claude Code — a response left with only its thinking after its unanswered call goes whole (discard)', async () => {
    const lines = conversation().slice(0, 3);
    const thinking = record('assistant', 'a-05', 'r-03', 4, [{ type: 'thinking', thinking: 'Check the archive next.', signature: '' }]);
    const call = record('assistant', 'a-06', 'a-05', 5, [use('toolu_04Ls', 'ls archive')]);
    call.message.id = thinking.message.id;
    lines.push(thinking, call);
    const { output } = await repairText(jsonl(lines), 'discard');
    const written = output.trim().split('\n').map((line) => JSON.parse(line) as Line);
    expect(written.some((line) => blocks(line, 'thinking').length > 0)).toBe(false);
    expect(written.some((line) => blocks(line, 'tool_use').some((block) => block.id === 'toolu_04Ls'))).toBe(false);
    const last = written.at(-1)!;
    expect(last).toMatchObject({ type: 'assistant', parentUuid: 'r-03', message: { content: [{ type: 'text', text: 'No response requested.' }] } });
    expect(unpaired(clientReplay(output))).toEqual([]);
    expect((await repairText(output, 'discard')).report.repair.changed).toBe(false);
  });
});
