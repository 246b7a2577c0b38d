import { describe, expect, it } from 'vitest';
import { detectFormat, likelyFormat } from '../../../src/formats/registry.js';
import { scanText } from '../../helpers/scan-text.js';
import { Session } from './session.js';

const LS = { id: 'call_1_0_0', name: 'bash' };
const VIEW = { id: 'call_1_0_1', name: 'view' };

describe('Copilot CLI detection', () => {
  it('knows its events by content, and a file by where Copilot keeps it', () => {
    const session = new Session().user('hi').turn('hello');
    for (const line of session.lines) expect(detectFormat(line)?.name).toBe('copilot-cli');
    expect(likelyFormat([], '/home/user/.copilot/session-state/5b0c6e2a/events.jsonl')?.name).toBe('copilot-cli');
    expect(likelyFormat([], '/srv/copilot-home/session-state/5b0c6e2a/events.jsonl')?.name).toBe('copilot-cli');
  });

  it('takes no part of an event (data, a tool request, an error) for an event', () => {
    const line = new Session().turn('', [{ ...LS }]).lines.at(-2)!;
    expect(detectFormat(line.data)).toBeUndefined();
    expect(detectFormat(line.data.toolRequests[0])).toBeUndefined();
  });
});

describe('Copilot CLI scan', () => {
  it('finds nothing in a healthy session with parallel calls answered out of order and a resume', async () => {
    const session = new Session().user('list').turn('', [{ ...LS, output: 'a.txt' }, { ...VIEW, output: '# readme' }]).turn('done');
    session.event('session.shutdown', { shutdownType: 'routine', totalApiDurationMs: 26, sessionStartTime: 1795586400000, codeChanges: { linesAdded: 0, linesRemoved: 0, filesModified: [] }, modelMetrics: {} });
    session.event('session.resume', { resumeTime: '2026-11-26T06:00:09.000Z', eventCount: 12 });
    session.user('again').turn('ok');
    expect(await scanText(session.text())).toEqual([]);
  });

  it('finds the call a kill left unanswered, on its line, in the words of the provider the model talks to', async () => {
    const openai = new Session('gpt-4.1').user('run').turn('', [{ ...LS, output: 'a.txt' }, { ...VIEW }]);
    const [finding] = await scanText(openai.text());
    expect(finding).toMatchObject({ rule: 'missing-tool-result', line: 4, pointer: '/data/toolRequests/1' });
    expect(finding!.providerError).toMatch(/^OpenAI Chat: .*call_1_0_1/);

    const claude = new Session('claude-sonnet-4.5').user('run').turn('', [{ ...VIEW }]);
    const [anthropic] = await scanText(claude.user('go on').text());
    expect(anthropic!.providerError).toMatch(/^Anthropic: .*tool_use.*call_1_0_1/);
  });

  it('counts the failed completion the runtime appends on resume as the answer', async () => {
    const session = new Session().user('run').turn('', [{ ...LS }]);
    session.event('session.resume', { resumeTime: '2026-11-26T06:00:09.000Z', eventCount: 6 });
    session.event('tool.execution_complete', { toolCallId: LS.id, model: 'resumed', interactionId: 'resume', success: false, error: { message: 'interrupted', code: 'interrupted' } });
    expect(await scanText(session.user('go on').turn('ok').text())).toEqual([]);
  });

  it('keeps interleaved sub-agent events out of the main conversation (#2543)', async () => {
    const session = new Session().user('delegate');
    session.turn('', [{ id: 'call_task', name: 'task' }]);
    session.event('user.message', { content: 'sub-task' }, { agentId: 'agent-1' });
    session.event('assistant.message', { messageId: 's1', content: '', toolRequests: [{ toolCallId: 'sub_1', name: 'bash', arguments: {} }] }, { agentId: 'agent-1' });
    session.complete('call_task', 'sub-agent done');
    session.complete('sub_1', 'x', { agentId: 'agent-1' });
    expect(await scanText(session.turn('done').text())).toEqual([]);
  });

  it('knows a sub-agent event by the task call that runs it too (data.parentToolCallId, no agentId)', async () => {
    const session = new Session().user('delegate');
    session.turn('', [{ id: 'call_task', name: 'task' }]);
    session.event('assistant.message', { messageId: 's1', content: '', toolRequests: [{ toolCallId: 'sub_1', name: 'bash', arguments: {} }], parentToolCallId: 'call_task' });
    session.event('tool.execution_complete', { toolCallId: 'sub_1', success: true, parentToolCallId: 'call_task' });
    session.complete('call_task', 'sub-agent done');
    expect(await scanText(session.turn('done').text())).toEqual([]);
  });

  it('finds a completion whose call is gone', async () => {
    const session = new Session().user('run').turn('hi');
    session.complete('call_gone', 'x');
    const findings = await scanText(session.user('next').turn('ok').text());
    expect(findings.map((finding) => [finding.rule, finding.line])).toEqual([['orphan-tool-result', 6]]);
  });
});

describe('Copilot CLI compaction, as 1.0.102 replays it', () => {
  const started = (session: Session) => session.event('session.compaction_start', {});
  const completed = (session: Session, extra: Record<string, unknown> = {}) => session.event('session.compaction_complete', { success: true, preCompactionMessagesLength: 3, summaryContent: 'summary', ...extra });

  it('an unanswered call the summary replaced is not sent any more: a warning, not an error', async () => {
    const session = new Session().user('run').turn('', [{ ...LS }]).user('again').turn('', [{ ...VIEW, output: 'b' }]);
    started(session);
    session.user('next');
    completed(session);
    const findings = await scanText(session.turn('ok').text());
    expect(findings.map((f) => [f.rule, f.line, f.severity])).toEqual([['missing-tool-result', 4, 'warning']]);
  });

  it('keeps the message whose calls were still running when it started, with their results written after (the pair #1005 broke)', async () => {
    const session = new Session().user('run').turn('', [{ ...LS }]);
    started(session);
    session.complete(LS.id, 'a.txt');
    completed(session, { preCompactionMessagesLength: 9 });
    expect(await scanText(session.turn('ok').text())).toEqual([]);
  });

  it('a failed compaction replaces nothing', async () => {
    const session = new Session().user('run').turn('', [{ ...LS }]);
    started(session);
    completed(session, { success: false });
    const findings = await scanText(session.user('next').turn('ok').text());
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['missing-tool-result', 'error']]);
  });
});
