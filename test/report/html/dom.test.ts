import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/pipeline/finding.js';
import { htmlReporter } from '../../../src/report/html/index.js';
import { Session } from '../../helpers/session.js';
import { ANTHROPIC_KEY, GITHUB_TOKEN, HOSTILE, samplePage } from './sample.js';

const EVIL_NAME = `evil"><img src=x onerror=alert(1)>'.jsonl`;

async function page() {
  const healthy = new Session().user('hello').reply('hi').jsonl();
  const broken = new Session().user('x').calls({ type: 'toolCall', id: 'call_q', name: 'read', arguments: {} }).user('again').jsonl();
  const { html, reports, dir } = await samplePage({ 'healthy.jsonl': healthy, [EVIL_NAME]: broken });
  return { html, reports, dir, document: parseHTML(html).document };
}

describe('html reporter, as a DOM', () => {
  it('has one section per file with findings and lists clean files folded', async () => {
    const { document, dir } = await page();
    const sections = [...document.querySelectorAll('section.file')];
    expect(sections.map((section) => section.getAttribute('data-path'))).toEqual([join(dir, 'sample.jsonl'), join(dir, EVIL_NAME)]);
    const clean = document.querySelector('details.clean-files');
    expect(clean?.hasAttribute('open')).toBe(false);
    expect(clean?.textContent).toContain(join(dir, 'healthy.jsonl'));
    expect(document.querySelector('p.summary')?.textContent).toBe('4 problems (3 errors, 1 warning) in 2 of 3 files.');
  });

  it('pins every finding at the turn of its line, with its provider error and fix command', async () => {
    const { document, reports } = await page();
    const sample = reports[0]!;
    const section = document.querySelector('section.file')!;
    const cards = [...section.querySelectorAll('.finding')];
    expect(cards.map((card) => Number(card.getAttribute('data-line')))).toEqual(sample.findings.map((finding) => finding.line));
    for (const [i, finding] of sample.findings.entries()) {
      const card = cards[i]!;
      expect(card.closest('li.turn')?.getAttribute('data-line')).toBe(String(finding.line));
      expect(card.getAttribute('data-rule')).toBe(finding.rule);
      expect(card.querySelector('.message')?.textContent).toBe(finding.message);
      expect(card.querySelector('.provider-error')?.textContent).toBe(finding.providerError);
    }
    const lost = cards.find((card) => card.getAttribute('data-line') === '13')!;
    expect([...lost.querySelectorAll('.fix code')].map((code) => code.textContent)).toEqual([
      `transcript-doctor repair --dry-run ${sample.path}`,
      `transcript-doctor repair --in-place ${sample.path}`,
      'transcript-doctor rules missing-tool-result',
    ]);
    expect(lost.querySelector('.fix')?.textContent).toContain('unsafe fix');
    const unreadable = cards.find((card) => card.getAttribute('data-rule') === 'invalid-json')!;
    expect(unreadable.closest('li.turn')?.classList.contains('role-line')).toBe(true);
    expect([...unreadable.querySelectorAll('.fix code')].map((code) => code.textContent)[0]).toBe(`transcript-doctor repair --in-place ${sample.path}`);
    // The index links to each card.
    const links = [...section.querySelectorAll('ol.index a')].map((link) => link.getAttribute('href')!.slice(1));
    expect(links).toEqual(cards.map((card) => card.id));
  });

  it('quotes a path the shell would misread in the fix command', async () => {
    const { document, dir } = await page();
    const codes = [...document.querySelectorAll('section.file')[1]!.querySelectorAll('.fix code')].map((code) => code.textContent);
    expect(codes).toContain(`transcript-doctor repair --in-place '${join(dir, `evil"><img src=x onerror=alert(1)>'\\''.jsonl`)}'`);
  });

  it('folds compacted history and abandoned branches, closed, with the findings inside counted', async () => {
    const { document } = await page();
    const section = document.querySelector('section.file')!;
    const compacted = section.querySelector('li.fold-compacted')!;
    expect(compacted.querySelector('details')!.hasAttribute('open')).toBe(false);
    expect([...compacted.querySelectorAll('li.turn')].map((turn) => turn.getAttribute('data-line'))).toEqual(['2', '3', '4']);
    const branch = section.querySelector('li.fold-abandoned')!;
    expect(branch.querySelector('details')!.hasAttribute('open')).toBe(false);
    expect(branch.querySelector('summary')!.textContent).toContain('forks after line 9');
    expect(branch.querySelector('summary .badge')!.textContent).toBe('1 finding');
    expect(branch.querySelector('.finding')!.getAttribute('data-line')).toBe('10');
    // The top level is the replayed path in order, the folds where they sit.
    const top = [...section.querySelector('ol.timeline')!.children].map((item) => item.getAttribute('data-line') ?? item.className);
    expect(top).toEqual(['fold fold-compacted', '5', '6', '7', '8', '9', 'fold fold-abandoned', '11', '12', '13', '14', '15']);
  });

  it('escapes hostile transcript text everywhere it is shown', async () => {
    const { document, html, dir } = await page();
    expect(document.querySelectorAll('script')).toHaveLength(1);
    expect(document.querySelectorAll('img')).toHaveLength(0);
    expect(html).not.toContain('\u2028');
    expect(html).not.toContain('\u2029');
    const turn = document.querySelector('li.turn[data-line="6"]')!;
    expect(turn.querySelector('.text')!.textContent).toBe(HOSTILE.replace(/\s+/g, ' ').trim());
    expect(turn.querySelector('details.more pre')!.textContent).toBe(HOSTILE);
    expect(document.querySelectorAll('section.file')[1]!.querySelector('h2')!.textContent).toContain(join(dir, EVIL_NAME));
    // The only script is the page's own, allowed by its hash; nothing else may run or load.
    const csp = document.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute('content')!;
    const script = document.querySelector('script')!.textContent!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`script-src 'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    expect(csp).not.toContain('unsafe');
  });

  it('stays inert for a crafted report, such as a merged JSON document with markup in every field', () => {
    const bad = '"><img src=x onerror=alert(1)><script>alert(2)</script>';
    const finding = { rule: bad, severity: bad, line: bad, pointer: bad, message: bad, providerError: bad } as unknown as Finding;
    const html = htmlReporter([{ path: bad, format: bad, findings: [finding, { ...finding }] }], { color: false });
    const { document } = parseHTML(html);
    expect(document.querySelectorAll('img')).toHaveLength(0);
    expect(document.querySelectorAll('script')).toHaveLength(1);
    expect(document.querySelector('.finding')!.getAttribute('data-rule')).toBe(bad);
    expect(document.querySelector('.finding .message')!.textContent).toBe(bad);
  });

  it('masks secrets in the text it shows', async () => {
    const { html, document } = await page();
    expect(html).not.toContain(GITHUB_TOKEN);
    expect(html).not.toContain(ANTHROPIC_KEY.slice(0, 30));
    expect(document.querySelector('li.turn[data-line="9"] .text')!.textContent).toBe('Use this token: [redacted github token] and this key [redacted anthropic key]');
  });
});
