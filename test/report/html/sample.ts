import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileReport } from '../../../src/pipeline/finding.js';
import { scanFile } from '../../../src/pipeline/scan.js';
import { htmlReporter } from '../../../src/report/html/index.js';
import { call, Session, text } from '../../helpers/session.js';

// Built at run time so that secret scanners do not flag this file.
const fill = (length: number): string => 'aB3dE5fG7hJ9kLmN1pQrS2tUvW4xYz6'.repeat(4).slice(0, length);
export const GITHUB_TOKEN = `ghp_${fill(36)}`;
export const ANTHROPIC_KEY = `sk-ant-api03-${fill(93)}-${fill(6)}AA`;

/** Text a transcript may hold that would break out of markup or a script if written raw. */
export const HOSTILE = `</script><script>window.pwned=1</script><img src=x onerror="window.pwned=2"> "quoted" 'single' a\u2028b\u2029c & done\n<!-- a second line -->`;

/**
 * A session with a bit of everything the page draws: compacted history, an abandoned branch with a
 * finding inside it, a finding on the replayed path with a provider error, an unreadable line,
 * hostile text and secrets in what the user and the tools said.
 */
export function sampleSession(): string {
  const s = new Session();
  s.user('Start the audit of the billing service.');
  s.calls(call('call_a', 'exec', { command: 'ls' }));
  s.result('call_a', 'exec');
  const kept = s.reply('Listed the folder.').last;
  s.user(HOSTILE);
  s.reply('Noted.');
  s.entry({ type: 'compaction', summary: 'The user asked for an audit; the folder was listed.', firstKeptEntryId: kept, tokensBefore: 5000 });
  const fork = s.user(`Use this token: ${GITHUB_TOKEN} and this key ${ANTHROPIC_KEY}`).last;
  s.calls(call('call_branch', 'exec', { command: 'rm -rf cache' }));
  s.user('Actually, do not delete anything.', { parent: fork });
  s.raw('{"type":"message","id":"broken", this line is cut');
  s.calls(call('call_lost', 'read', { path: 'billing.md' }));
  s.user('Are you there?');
  s.assistant([text('Yes.')]);
  return s.jsonl();
}

/** Writes the sample (and any more sessions) to a temp folder, scans them as `scan --reporter html` does and renders the page. */
export async function samplePage(more: Record<string, string> = {}): Promise<{ html: string; reports: FileReport[]; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'html-report-'));
  const files = { 'sample.jsonl': sampleSession(), ...more };
  const reports: FileReport[] = [];
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name);
    writeFileSync(path, content);
    reports.push(await scanFile(path, undefined, undefined, false, { timeline: true }));
  }
  return { html: htmlReporter(reports, { color: false }), reports, dir };
}
