import { describe, expect, it } from 'vitest';
import { call, Session, text } from '../helpers/session.js';
import { longText, NO_USAGE, piSession, slimText } from './slim-session.js';

describe('slim on pi sessions', () => {
  it('copies a session that fits byte for byte, even without a final line ending', async () => {
    const jsonl = piSession(2, 20).jsonl().slice(0, -1);
    const { output, report } = await slimText(jsonl);
    expect(output).toBe(jsonl);
    expect(report.repair.changed).toBe(false);
    expect(report.slim?.fits).toBe(true);
    expect(report.slim?.strategies).toEqual([]);
  });

  it('trims old tool results to head and tail with a stub naming the tool, its path and the size', async () => {
    const session = piSession(6);
    const { lines, report } = await slimText(session.jsonl(), { target: { tokens: 150_000 } });
    const results = lines.filter((line) => line.message?.role === 'toolResult');
    const first = results[0]!.message.content[0].text as string;
    expect(first.length).toBeLessThan(4000);
    expect(first.startsWith('t0 line 0:')).toBe(true);
    expect(first).toMatch(/transcript-doctor slim cut [\d,]+ of [\d,]+ characters from this read result \(src\/file-0\.ts\); the original is in the backup/);
    expect(first.endsWith('t0 line 1999: const value1999 = compute(1999); // some code')).toBe(true);
    expect(report.slim?.strategies.map((result) => result.strategy)).toContain('old-results');
    const trimmed = report.slim!.strategies.find((result) => result.strategy === 'old-results')!;
    expect(trimmed.savedBytes).toBeGreaterThan(100_000);
    expect(report.slim!.after.high).toBeLessThan(report.slim!.before.high);
  });

  it('stops as soon as the request fits: the oldest results go first, later ones stay whole', async () => {
    const { lines, report } = await slimText(piSession(6).jsonl(), { target: { tokens: 150_000 } });
    const texts = lines.filter((line) => line.message?.role === 'toolResult').map((line) => line.message.content[0].text as string);
    expect(report.slim?.fits).toBe(true);
    const cut = texts.map((value) => value.includes('transcript-doctor slim cut'));
    expect(cut[0]).toBe(true);
    expect(cut.at(-1)).toBe(false);
    // Cuts are a prefix of the results: never a later one before an earlier one.
    expect(cut.indexOf(false)).toBeGreaterThan(0);
    expect(cut.slice(cut.indexOf(false)).every((value) => !value)).toBe(true);
  });

  it('keeps the latest turn byte for byte, the results of the latest two, and every call its result', async () => {
    const jsonl = piSession(5).jsonl();
    const { output, report } = await slimText(jsonl, { target: { tokens: 10_000 } });
    const before = jsonl.split('\n');
    const after = output.split('\n');
    // Four lines a turn (and the empty string after the last line ending); a compaction entry may follow them.
    const latest = before.slice(-5, -1);
    const at = after.indexOf(latest[0]!);
    expect(at).toBeGreaterThan(0);
    expect(after.slice(at, at + 4)).toEqual(latest);
    expect(after).toContain(before.at(-7));
    expect(after).not.toContain(before.at(-8));
    expect(report.findings).toEqual([]);
    expect(report.slim?.fits).toBe(false);
    expect(report.slim?.left?.[0]).toMatch(/tokens \(estimate plus its error\) > target 10,000/);
  });

  it('drops every signed thinking block after the first edit whole, and none in the latest turn', async () => {
    const { lines } = await slimText(piSession(5).jsonl(), { target: { tokens: 10_000 } });
    const assistants = lines.filter((line) => line.message?.role === 'assistant' && line.message.stopReason === 'toolUse');
    const kinds = assistants.map((line) => line.message.content.map((block: { type: string }) => block.type).join(','));
    // The first result is the first edit: its own turn's thinking came before it and stays.
    expect(kinds).toEqual(['thinking,toolCall', 'toolCall', 'toolCall', 'toolCall', 'thinking,toolCall']);
    const kept = assistants.at(-1)!.message.content[0];
    expect(kept.thinkingSignature).toBe('sig-4');
  });

  it('changes nothing when run again at the same target', async () => {
    const first = await slimText(piSession(6).jsonl(), { target: { tokens: 150_000 } });
    const second = await slimText(first.output, { target: { tokens: 150_000 } });
    expect(second.output).toBe(first.output);
    expect(second.report.repair.changed).toBe(false);
  });

  it('never trims a result again, even at a smaller target', async () => {
    const first = await slimText(piSession(6).jsonl(), { target: { tokens: 150_000 }, keepTurns: 1 });
    const second = await slimText(first.output, { target: { tokens: 20_000 }, keepTurns: 1 });
    const texts = second.lines.filter((line) => line.message?.role === 'toolResult').map((line) => line.message.content[0].text as string);
    for (const value of texts) expect(value.split('transcript-doctor slim cut').length).toBeLessThanOrEqual(2);
  });

  it('stubs an image over the 5 MB limit even in the latest prompt, saying what it was', async () => {
    const session = new Session();
    session.user([text('look at this'), { type: 'image', mimeType: 'image/png', data: `iVBORw0KGgo${'A'.repeat(5_300_000)}` }]);
    session.assistant([text('I see it.')], 'stop', NO_USAGE);
    const { lines, report } = await slimText(session.jsonl());
    const content = lines[1]!.message.content;
    expect(content[0]).toEqual({ type: 'text', text: 'look at this' });
    expect(content[1].type).toBe('text');
    expect(content[1].text).toMatch(/^\[transcript-doctor slim removed an image here \(image\/png, 3\.8 MiB; over a limit: 5,300,01\d base64 characters > 5,242,880\); the original is in the backup/);
    expect(report.slim?.strategies.map((result) => result.strategy)).toEqual(['images-over-limit']);
    expect(report.slim?.fits).toBe(true);
  });

  it('stubs old images in tool results when the request is still too big', async () => {
    const session = new Session();
    for (let t = 0; t < 4; t++) {
      session.user(`prompt ${t}`);
      session.assistant([call(`shot-${t}`, 'screenshot', { url: `http://localhost/${t}` })], 'toolUse', NO_USAGE);
      session.result(`shot-${t}`, 'screenshot', { message: { content: [text('screenshot taken'), { type: 'image', mimeType: 'image/png', data: `iVBORw0KGgo${'B'.repeat(400_000)}` }] } });
      session.assistant([text(`seen ${t}`)], 'stop', NO_USAGE);
    }
    const { lines, report } = await slimText(session.jsonl(), { target: { tokens: 3_000 } });
    const images = lines.filter((line) => line.message?.role === 'toolResult').map((line) => line.message.content[1].type);
    // Oldest first, and never in the latest two turns.
    expect(images[0]).toBe('text');
    expect(images.slice(-2)).toEqual(['image', 'image']);
    expect(images.join(',')).toMatch(/^(text,)+(image,?)+$/);
    expect(lines[3]!.message.content[1].text).toMatch(/^\[transcript-doctor slim removed an image here \(image\/png, 293\.0 KiB; an older image, taken out to make the session fit\)/);
    expect(report.slim?.strategies[0]?.strategy).toBe('old-images');
    expect(report.findings).toEqual([]);
  });

  it('leaves a result shorter than the shortest worth trimming alone', async () => {
    const session = new Session();
    for (let t = 0; t < 4; t++) {
      session.user(`prompt ${t}`);
      session.assistant([call(`c${t}`)], 'toolUse', NO_USAGE);
      session.result(`c${t}`, 'read', { message: { content: [text(longText(10))] } });
      session.assistant([text('ok')], 'stop', NO_USAGE);
    }
    const { lines, report } = await slimText(session.jsonl(), { target: { tokens: 100 } });
    const texts = lines.filter((line) => line.message?.role === 'toolResult').map((line) => line.message.content[0].text);
    expect(texts).toEqual(Array(4).fill(longText(10)));
    expect(report.slim?.strategies.map((result) => result.strategy)).not.toContain('old-results');
    expect(report.slim?.fits).toBe(false);
  });
});
