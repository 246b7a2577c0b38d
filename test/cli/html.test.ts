import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { call, Session } from '../helpers/session.js';
import { GITHUB_TOKEN } from '../report/html/sample.js';
import { ROOT, runCli } from './run-cli.js';

describe('scan --reporter html', () => {
  it('draws each broken file with the words of its turns, also from other threads (--jobs)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-html-'));
    const broken = ['missing-tool-result', 'orphan-tool-result', 'abandoned-branch', 'invalid-json', 'unknown-parent', 'duplicate-tool-call-id', 'tool-result-order', 'partial-tool-call', 'parent-cycle'];
    for (const name of broken) copyFileSync(join(ROOT, 'fixtures', 'pi', `${name}.jsonl`), join(dir, `${name}.jsonl`));
    copyFileSync(join(ROOT, 'fixtures', 'pi', 'healthy.jsonl'), join(dir, 'healthy.jsonl'));
    // A secret said in a session is masked whichever thread reads the turn back.
    const secret = new Session().user(`deploy with ${GITHUB_TOKEN}`).calls(call('call_lost')).user('?').jsonl();
    for (const name of ['secret-a', 'secret-b', 'secret-c']) writeFileSync(join(dir, `${name}.jsonl`), secret);
    broken.push('secret-a', 'secret-b', 'secret-c');
    const page = join(dir, 'report.html');
    const result = await runCli(['scan', dir, '--jobs', '3', '-r', 'html', '--output-file', page]);
    expect(result).toMatchObject({ code: 1, stdout: '', stderr: '' });
    const text = readFileSync(page, 'utf8');
    const { document } = parseHTML(text);
    const sections = [...document.querySelectorAll('section.file')];
    expect(sections.map((section) => section.getAttribute('data-path')).sort()).toEqual(broken.map((name) => join(dir, `${name}.jsonl`)).sort());
    for (const section of sections) {
      expect(section.querySelectorAll('li.turn .text').length, section.getAttribute('data-path')!).toBeGreaterThan(0);
      expect(section.querySelectorAll('.finding').length).toBeGreaterThan(0);
    }
    expect(document.querySelector('details.clean-files')!.textContent).toContain('healthy.jsonl');
    expect(text).not.toContain(GITHUB_TOKEN);
    expect(text.match(/deploy with \[redacted github token\]/g)).toHaveLength(3);
  });

  it('leaves the other reporters as they were: no timeline in JSON beside it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'td-html-'));
    const file = join(ROOT, 'fixtures', 'pi', 'missing-tool-result.jsonl');
    const both = await runCli(['scan', file, '-r', 'json', '-r', 'html', '--output-file', `html:${join(dir, 'page.html')}`]);
    const alone = await runCli(['scan', file, '-r', 'json']);
    expect(both.code).toBe(1);
    expect(both.stdout).toBe(alone.stdout);
    expect(both.stdout).not.toContain('timeline');
    expect(readFileSync(join(dir, 'page.html'), 'utf8')).toContain('<section class="file"');
  });

  it('draws standard input without the words of its turns, and says why', async () => {
    const input = readFileSync(join(ROOT, 'fixtures', 'pi', 'missing-tool-result.jsonl'));
    const result = await runCli(['scan', '-', '-r', 'html'], { input });
    expect(result.code).toBe(1);
    const { document } = parseHTML(result.stdout);
    expect(document.querySelector('section.file')!.getAttribute('data-path')).toBe('-');
    expect(document.querySelector('section.file')!.textContent).toContain('standard input is read once, so turns show no text');
    expect(document.querySelectorAll('li.turn').length).toBeGreaterThan(3);
    expect(document.querySelector('.fix code')!.textContent).toBe('transcript-doctor repair --dry-run <file>');
  });

  it('is listed among the reporters', async () => {
    const result = await runCli(['scan', '--help']);
    expect(result.stdout).toMatch(/report format, repeatable:[a-z,\s]*\bhtml\b[a-z,\s]*\(default: stylish\)/);
  });
});
