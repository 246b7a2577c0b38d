import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { FileReport } from '../../src/pipeline/finding.js';
import { scanSource } from '../../src/pipeline/scan.js';
import type { SizeSummary } from '../../src/pipeline/size-summary.js';
import { htmlReporter } from '../../src/report/html/index.js';
import { sizeHtml } from '../../src/report/html/size-html.js';
import { jsonDocument } from '../../src/report/json-document.js';
import { fileReportsOf, parseJsonReport } from '../../src/report/read-json.js';
import { sizeLines } from '../../src/report/size-text.js';
import { stylishReporter } from '../../src/report/stylish.js';
import { expectGolden } from './golden.js';
import { Session, text } from '../helpers/session.js';
import { callTurn, codeText, pngBlock } from '../helpers/size-sessions.js';

const share = (bytes: number, tokens: number, count: number) => ({ bytes, tokens, count });

/** A Claude Code session over its window, as the scan summarises it: a fixed one, so the text is a golden. */
const size: SizeSummary = {
  model: 'claude-sonnet-4-5',
  judgedBy: 'anthropic',
  window: { tokens: 200_000, family: 'claude-sonnet-4', source: 'platform.claude.com/docs/en/build-with-claude/context-windows', guessed: false },
  tokens: { estimate: 231_480, high: 240_600, estimator: 'per-kind', anchor: { line: 812, tokens: 186_000 } },
  bytes: 1_482_113,
  media: { images: 3, pdfPages: 0, count: 3 },
  byKind: {
    text: share(90_000, 28_000, 120),
    thinking: share(30_000, 9_000, 40),
    toolCall: share(60_000, 20_000, 300),
    toolResult: share(1_100_000, 170_000, 300),
    image: share(180_000, 4_480, 3),
    document: share(0, 0, 0),
    other: share(22_113, 0, 500),
    signature: share(0, 0, 0),
  },
  byTool: [
    { tool: 'Read', ...share(800_000, 120_000, 180) },
    { tool: 'Bash', ...share(300_000, 50_000, 120) },
  ],
  largest: [
    { line: 840, kind: 'toolResult', bytes: 96_000, tokens: 33_100, tool: 'Read' },
    { line: 12, kind: 'text', bytes: 20_000, tokens: 6_250, tool: null },
  ],
};

const finding = { rule: 'context-window-exceeded', severity: 'error' as const, line: 841, pointer: '', message: 'The request a resume sends holds about 231,480 input tokens.' };
const report: FileReport = { path: 'sessions/big.jsonl', format: 'claude-code', findings: [finding], size };

describe('size summary in the reports', () => {
  it('--statistics lists what makes the session big under the rule counts', () => {
    expectGolden('size-statistics.txt', stylishReporter([report], { color: false, statistics: true }));
  });

  it('text: shares of the tokens by kind and tool, largest entries with their lines', () => {
    const lines = sizeLines(size);
    expect(lines[0]).toBe('≈ 231,480 input tokens (up to 240,600) of a 200,000-token window (116%; claude-sonnet-4) · claude-sonnet-4-5, judged as anthropic');
    expect(lines[2]).toBe(
      'by kind:  toolResult 73% (170,000 tokens, 300) · text 12% (28,000 tokens, 120) · toolCall 9% (20,000 tokens, 300) · thinking 4% (9,000 tokens, 40) · image 2% (4,480 tokens, 3) · other 0% (0 tokens, 500)',
    );
    expect(lines).toContain('  line     840  toolResult Read  96,000 bytes ≈ 33,100 tokens');
  });

  it('JSON carries it as it is, and reads it back for merge-reports', () => {
    const document = jsonDocument([report, { path: 'clean.jsonl', format: 'pi', findings: [] }]);
    expect(document.files[0]!.size).toEqual(size);
    expect('size' in document.files[1]!).toBe(false);
    const read = parseJsonReport(JSON.stringify(document));
    if (typeof read === 'string') throw new Error(read);
    expect(fileReportsOf(read)[0]!.size).toEqual(size);
  });

  it('HTML draws the tables, escaped, inside the file section', () => {
    const html = sizeHtml({ ...size, byTool: [{ tool: '<script>', ...share(1, 1, 1) }] });
    expect(html).toContain('<table><caption>By kind</caption>');
    expect(html).toContain('<td>&lt;script&gt;</td>');
    expect(html).not.toContain('<script>');
    expect(htmlReporter([report], { color: false })).toContain('Size of the request a resume sends: ≈ 231,480 input tokens');
    expect(sizeHtml(undefined)).toBe('');
  });
});

describe('the scan summarises a session a size rule found something in', () => {
  it('tokens anchored on the recorded usage, the big result as the largest entry, by tool', async () => {
    const session = new Session().user('Refactor the handlers');
    callTurn(session, 'c1', 150_000);
    session.result('c1', 'read', { message: { content: [text(codeText(100_000))] } });
    callTurn(session, 'c2', 185_000);
    session.result('c2', 'screenshot', { message: { content: [text(codeText(60_000)), pngBlock(1280, 800)] } });
    const scanned = await scanSource('big.jsonl', Readable.from([Buffer.from(session.jsonl())]));
    expect(scanned.findings.map((f) => f.rule)).toContain('context-window-exceeded');
    const summary = scanned.size!;
    expect(summary).toMatchObject({ model: 'claude-sonnet-4-5', judgedBy: 'anthropic', window: { tokens: 200_000, guessed: false }, media: { images: 1, count: 1 } });
    expect(summary.tokens.anchor).toEqual({ line: 5, tokens: 185_000 });
    expect(summary.tokens.estimate).toBeGreaterThan(200_000);
    expect(summary.largest[0]).toMatchObject({ line: 4, kind: 'toolResult', tool: 'read' });
    expect(summary.byTool[0]).toMatchObject({ tool: 'read' });
    expect(summary.byKind.image.count).toBe(1);
  });

  it('a session no size rule speaks of carries none', async () => {
    const scanned = await scanSource('small.jsonl', Readable.from([Buffer.from(new Session().user().reply().jsonl())]));
    expect(scanned.size).toBeUndefined();
  });
});
