import { describe, expect, it } from 'vitest';
import { scanFor } from '../../helpers/provider-repair.js';
import { QwenSession } from './session.js';

function summary(findings: Array<{ line: number; rule: string; severity: string }>): string[] {
  return findings.map((f) => `${f.line} ${f.rule} ${f.severity}`);
}

/** A session whose second turn's call was never answered, then a new prompt. */
function unanswered(model?: string): QwenSession {
  const session = new QwenSession(model);
  session.user('read a.txt');
  session.calls(['call_1']);
  session.user('are you there?');
  session.answer('yes');
  return session;
}

describe('Qwen Code: pairing in the words of the provider the session talks to', () => {
  it('OpenAI-compatible by default (any model Qwen reaches through its OpenAI endpoint)', async () => {
    const [finding] = await scanFor(unanswered().text());
    expect(finding).toMatchObject({ rule: 'missing-tool-result', line: 2, severity: 'error' });
    expect(finding!.providerError).toMatch(/^OpenAI Chat: An assistant message with 'tool_calls' must be followed by tool messages .* call_1$/);
    expect(finding!.healedBy?.client).toBe('Qwen Code');
  });

  it('a Gemini model speaks Gemini, and the auth type its telemetry logged wins over the model name', async () => {
    expect((await scanFor(unanswered('gemini-2.5-pro').text()))[0]!.providerError).toMatch(/^Gemini: /);
    const session = new QwenSession('gemini-2.5-pro');
    session.user('read a.txt');
    session.system('ui_telemetry', { uiEvent: { 'event.name': 'qwen-code.api_response', auth_type: 'anthropic' } });
    session.calls(['call_1']);
    session.user('are you there?');
    expect((await scanFor(session.text()))[0]!.providerError).toMatch(/^Anthropic: /);
  });

  it('--provider decides over both', async () => {
    expect((await scanFor(unanswered().text(), 'anthropic'))[0]!.providerError).toMatch(/^Anthropic: /);
  });
});

describe('Qwen Code: the replayed chain', () => {
  it('is walked back from the newest record: a rewound turn is a dead branch, judged as one', async () => {
    const session = new QwenSession();
    const first = session.user('read a.txt');
    session.calls(['call_1']);
    session.user('rewound: try again', first);
    session.answer('done');
    expect(summary(await scanFor(session.text()))).toEqual(['2 missing-tool-result warning']);
  });

  it('session artifact records never become the newest record the walk starts from', async () => {
    const session = new QwenSession();
    session.user('hello');
    session.answer('hi');
    const dead = session.user('rewound prompt');
    session.system('session_artifact_event', { kind: 'x' }, dead);
    // The artifact hangs off the rewound prompt; were it the leaf, that prompt would be replayed.
    session.answer('again', session.records[1]!.uuid as string);
    expect(await scanFor(session.text())).toEqual([]);
  });

  it('a chat_compression replaces what came before it: an unanswered call it summarised is no error', async () => {
    const session = new QwenSession();
    session.user('read a.txt');
    session.calls(['call_1']);
    session.system('chat_compression', { compressedHistory: [{ role: 'user', parts: [{ text: 'summary' }] }, { role: 'model', parts: [{ text: 'Got it.' }] }] });
    session.user('go on');
    session.answer('ok');
    const findings = await scanFor(session.text());
    expect(findings.filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('a missing parent says how much history the client resumes without', async () => {
    const session = new QwenSession();
    session.user('first prompt');
    session.answer('first answer');
    session.user('second prompt');
    session.answer('second answer');
    session.user('after the gap', 'ffffffff-0000-4000-8000-000000000000');
    const [finding] = await scanFor(session.text());
    expect(finding).toMatchObject({ rule: 'unknown-parent', line: 5, severity: 'error' });
    expect(finding!.message).toContain('the agent resumes without the 4 earlier messages, 2 of them user prompts, written before line 5');
  });

  it('a realtime message is shown, never sent: it does not end the turn the call waits in', async () => {
    const session = new QwenSession();
    session.user('read a.txt');
    session.calls(['call_1']);
    session.user('(typing…)', undefined, 'realtime_message');
    session.result('call_1');
    session.answer('done');
    expect(await scanFor(session.text())).toEqual([]);
  });
});

describe('Qwen Code: the window the session records', () => {
  /** One turn whose read returned `bytes` of text (about a third as many tokens), on qwen3-coder-plus (1M in the table). */
  function bigRead(bytes: number, window?: number): string {
    const session = new QwenSession('qwen3-coder-plus', window);
    session.user('read a.txt');
    session.calls(['call_1']);
    const id = session.result('call_1');
    (session.records.find((record) => record.uuid === id)!.message as { parts: Array<{ functionResponse: { response: { output: string } } }> }).parts[0]!.functionResponse.response.output = 'x'.repeat(bytes);
    session.answer('read it');
    return session.text();
  }

  it("wins over the table's: contextWindowSize 131072 puts a 170,000-token request over it", async () => {
    const findings = await scanFor(bigRead(510_000, 131_072));
    const over = findings.find((finding) => finding.rule === 'context-window-exceeded');
    expect(over?.message).toMatch(/over the 131,072-token context window of qwen3-coder-plus, as the session records it/);
  });

  it('without one, the table decides (1M for qwen3-coder-plus): the same request is no size finding', async () => {
    const findings = await scanFor(bigRead(510_000));
    expect(findings.filter((finding) => finding.rule.startsWith('context-window'))).toEqual([]);
  });
});
