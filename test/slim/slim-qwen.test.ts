import { describe, expect, it } from 'vitest';
import { QwenSession } from '../formats/qwen-code/session.js';
import { longText, slimText } from './slim-session.js';

/** A Qwen Code session of `turns` prompts, each reading a long file and answering; no usage recorded, so the size is all estimated. */
function qwenSession(turns: number, resultLines = 2000, window?: number): string {
  const session = new QwenSession('qwen3-coder-plus', window);
  for (let t = 0; t < turns; t++) {
    session.user(`prompt ${t}`);
    session.calls([`call-${t}`]);
    const id = session.result(`call-${t}`);
    (session.records.find((record) => record.uuid === id)!.message as { parts: Array<{ functionResponse: { response: { output: string } } }> }).parts[0]!.functionResponse.response.output = longText(resultLines, `t${t}`);
    session.answer(`answer ${t}`);
  }
  return session.text();
}

const outputs = (lines: Array<Record<string, any>>) => lines.filter((line) => line.type === 'tool_result').map((line) => line.message.parts[0].functionResponse.response.output as string);

describe('slim on Qwen Code sessions', () => {
  it('trims old tool outputs to head and tail with a stub naming the tool and its file, before any compaction', async () => {
    const { lines, report } = await slimText(qwenSession(6), { target: { tokens: 150_000 } });
    const texts = outputs(lines);
    expect(texts[0]!).toMatch(/transcript-doctor slim cut [\d,]+ of [\d,]+ characters from this read_file result \(a\.txt\); the original is in the backup/);
    expect(texts[0]!.startsWith('t0 line 0:')).toBe(true);
    // The latest two turns keep their outputs whole.
    expect(texts.slice(-2).every((text) => !text.includes('transcript-doctor slim cut'))).toBe(true);
    expect(report.slim?.strategies.map((result) => result.strategy)).toEqual(['old-results']);
    expect(report.slim?.fits).toBe(true);
    expect(report.findings).toEqual([]);
    // Every call keeps its result, every prompt stays.
    expect(texts).toHaveLength(6);
    expect(lines.filter((line) => line.type === 'user')).toHaveLength(6);
  });

  it('changes nothing when run again at the same target', async () => {
    const first = await slimText(qwenSession(6), { target: { tokens: 150_000 } });
    const second = await slimText(first.output, { target: { tokens: 150_000 } });
    expect(second.output).toBe(first.output);
  });

  it("takes its target from the window the session records, not the table's 1M for qwen3-coder-plus", async () => {
    const { report } = await slimText(qwenSession(6, 2000, 131_072));
    expect(report.slim?.target.window).toBe(131_072);
    expect(report.slim?.target.tokens).toBe(Math.floor(131_072 * 0.6));
    expect(report.slim?.target.windowSource).toMatch(/^recorded: the session records a window of 131,072 tokens for its model; the table's qwen-1m window, 1,000,000 \(Qwen Code 0\.24\.4 .*\), does not apply$/);
    expect(report.slim?.fits).toBe(true);
    expect(report.slim?.strategies.map((result) => result.strategy)).toContain('old-results');
  });
});
