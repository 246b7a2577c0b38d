import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanText } from '../../helpers/scan-text.js';
import { assistant, call, ghost, jsonl, line, meta, output, reasoning, resetClock, tokens, turnContext, user, userEvent, type Line } from './rollout.js';

/** Findings as `line rule severity`. */
async function findings(lines: Line[]): Promise<string[]> {
  return (await scanText(jsonl(lines))).map((f) => `${f.line} ${f.rule} ${f.severity}`);
}

function opening(): Line[] {
  resetClock();
  return [meta(), turnContext(), user('run it'), userEvent('run it')];
}

describe('Codex pairing, judged as the Responses API reads a flat item list', () => {
  it('accepts parallel calls of every kind answered in any order, with events, reasoning and snapshots around them', async () => {
    const lines = [
      ...opening(),
      ghost(),
      reasoning(),
      call('function', 'call_f'),
      tokens(),
      call('custom', 'call_c'),
      call('shell', 'call_l'),
      call('search', 'call_s'),
      tokens(),
      output('search', 'call_s'),
      output('shell', 'call_l'),
      tokens(),
      output('function', 'call_f'),
      output('custom', 'call_c'),
      assistant('done'),
    ];
    expect(await findings(lines)).toEqual([]);
  });

  it('accepts an output that arrives while the response is still being written', async () => {
    expect(await findings([...opening(), reasoning(), call('function', 'call_f'), output('function', 'call_f'), assistant('still typing'), call('custom', 'call_c'), output('custom', 'call_c')])).toEqual([]);
  });

  it('reports a call whose output never came, an error whether or not the file ends there', async () => {
    expect(await findings([...opening(), reasoning(), call('custom', 'call_c'), tokens()])).toEqual(['6 missing-tool-result error']);
    expect(await findings([...opening(), call('function', 'call_f'), user('never mind'), assistant('ok')])).toEqual(['5 missing-tool-result error']);
  });

  it('reports an output whose call is not in the history, and one written after a later user message', async () => {
    expect(await findings([...opening(), output('function', 'call_gone'), assistant('ok')])).toEqual(['5 orphan-tool-result error']);
    expect(await findings([...opening(), call('function', 'call_f'), user('hurry up'), output('function', 'call_f')])).toEqual(['7 displaced-tool-result error']);
  });

  it('quotes the Responses API, not Anthropic, where its words are known', async () => {
    const errors = async (lines: Line[]) => (await scanText(jsonl(lines))).map((f) => `${f.rule}: ${f.providerError}`);
    expect(await errors([...opening(), call('custom', 'call_c'), user('and?')])).toEqual(['missing-tool-result: OpenAI Responses: No tool output found for function call call_c.']);
    expect(await errors([...opening(), output('function', 'call_gone'), assistant('ok')])).toEqual(['orphan-tool-result: OpenAI Responses: No tool call found for function call output with call_id call_gone.']);
    expect(await errors([...opening(), output('function', 'call_f'), call('function', 'call_f')])).toEqual(['displaced-tool-result: OpenAI Responses: No tool call found for function call output with call_id call_f.']);
    expect(await errors([...opening(), call('custom', 'call_c'), output('custom', 'call_c'), output('custom', 'call_c')])).toEqual(['duplicate-tool-result: undefined']);
  });

  it('reports an output written before its call as displaced, not as an orphan beside an unanswered call', async () => {
    expect(await findings([...opening(), reasoning(), output('function', 'call_f'), call('function', 'call_f'), assistant('ok')])).toEqual(['6 displaced-tool-result error']);
    // An output before the call that another output already answers stays an orphan.
    expect(await findings([...opening(), output('function', 'call_f'), call('function', 'call_f'), output('function', 'call_f')])).toEqual(['5 orphan-tool-result error']);
  });

  it('reports an output written twice, and a call id used again in a later response', async () => {
    expect(await findings([...opening(), call('custom', 'call_c'), output('custom', 'call_c'), output('custom', 'call_c')])).toEqual(['7 duplicate-tool-result error']);
    const reused = [...opening(), call('function', 'call_r'), output('function', 'call_r'), user('again'), call('function', 'call_r'), output('function', 'call_r')];
    expect(await findings(reused)).toEqual(['8 duplicate-tool-call-id error']);
  });

  it('reports a break that a compaction took out of the history one severity lower', async () => {
    const lines = [...opening(), call('function', 'call_f'), user('go on'), line('compacted', { message: 'summary so far', replacement_history: [] }), assistant('continuing')];
    const report = await scanText(jsonl(lines));
    expect(report.map((f) => `${f.line} ${f.rule} ${f.severity}`)).toEqual(['5 missing-tool-result warning']);
    expect(report[0]!.message).toMatch(/compacted away/);
  });

  it('ignores event copies: an output is not displaced by the events written before it', async () => {
    const lines = [...opening(), call('function', 'call_f'), line('event_msg', { type: 'exec_command_end', call_id: 'call_f', exit_code: 0 }), tokens(), output('function', 'call_f')];
    expect(await findings(lines)).toEqual([]);
  });

  it('requires a readable session_meta first, as Codex does to resume', async () => {
    resetClock();
    expect(await findings([turnContext(), user('hi')])).toEqual(['1 invalid-header error']);
    expect(await findings([meta('not-a-uuid'), user('hi')])).toEqual(['1 invalid-header error']);
    expect(await findings([meta(), user('hi'), meta()])).toEqual([]);
    expect((await scanText(jsonl([meta('not-a-uuid'), user('hi')])))[0]!.message).toBe('Session header is invalid: its "id" is not a UUID; Codex will not resume it ("rollout at … does not start with session metadata").');
  });
});

describe('Codex fixtures', () => {
  it('each is described in fixtures/README.md', () => {
    const root = join(import.meta.dirname, '..', '..', '..', 'fixtures');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    for (const name of readdirSync(join(root, 'codex'))) expect(readme, name).toContain(`\`codex/${name}\``);
  });
});

describe('Codex: the window the session records', () => {
  /** One turn whose command printed `bytes` of text (about a quarter as many tokens), on gpt-5-codex (272,000 in the table). */
  function bigOutput(bytes: number, window?: number): Line[] {
    resetClock();
    const counted = line('event_msg', { type: 'token_count', info: window === undefined ? null : { total_token_usage: null, last_token_usage: null, model_context_window: window }, rate_limits: null });
    const big = output('function', 'call_f');
    big.payload.output = 'x'.repeat(bytes);
    return [meta(), turnContext(), user('run it'), userEvent('run it'), counted, call('function', 'call_f'), big, assistant('done')];
  }

  it("wins over the table's: model_context_window 100,000 puts a 150,000-token request over it", async () => {
    const report = await scanText(jsonl(bigOutput(600_000, 100_000)));
    const over = report.find((finding) => finding.rule === 'context-window-exceeded');
    expect(over?.message).toMatch(/100,000-token context window of gpt-5-codex, as the session records it/);
  });

  it('without one, the table decides (272,000 for gpt-5-codex): the same request is no size finding', async () => {
    const report = await scanText(jsonl(bigOutput(600_000)));
    expect(report.filter((finding) => finding.rule.startsWith('context-window'))).toEqual([]);
  });
});
