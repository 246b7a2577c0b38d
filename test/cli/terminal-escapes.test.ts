import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, Session } from '../helpers/session.js';
import { runCli, type CliResult } from './run-cli.js';

/** Sets the window title, rings the bell and clears the screen, when a terminal obeys it. */
const PAYLOAD = '\u001b]0;PWNED\u0007\u001b[2J';
const SHOWN = '\\x1b]0;PWNED\\x07\\x1b[2J';
/** Whatever a terminal would obey: C0 but newline, DEL, C1, bidi controls. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** The same, but ESC is allowed when it starts one of the SGR colour codes the reporter writes. */
const RAW_BUT_COLOUR = /\u001b(?!\[\d+m)|[\u0000-\u0009\u000b-\u001a\u001c-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const COLOURS = [
  { name: '--no-color', args: ['--no-color'], env: {}, raw: RAW_CONTROL },
  { name: 'FORCE_COLOR=1', args: [], env: { FORCE_COLOR: '1' }, raw: RAW_BUT_COLOUR },
];

function expectClean(result: CliResult, raw: RegExp): void {
  expect(result.stdout, 'stdout').not.toMatch(raw);
  expect(result.stderr, 'stderr').not.toMatch(raw);
}

/** A session whose tool call id and name carry the payload, one parent id a right-to-left override, under a file name with ESC in it. */
function craftedSession(): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'td-escapes-'));
  const session = new Session().user('hi').calls(call(`call_${PAYLOAD}`, `x${PAYLOAD}`)).user('and?', { parent: 'u1\u202e' });
  const file = join(dir, `name-${PAYLOAD}.jsonl`);
  writeFileSync(file, session.jsonl());
  return { dir, file };
}

describe('nothing from a transcript or a report reaches the terminal as a control character', () => {
  it.each(COLOURS)('scan, repair --dry-run and explain ($name)', async ({ args, env, raw }) => {
    const { dir, file } = craftedSession();
    const scan = await runCli(['scan', file, ...args], { env });
    expect(scan.code).toBe(1);
    expectClean(scan, raw);
    expect(scan.stdout).toContain(`name-${SHOWN}.jsonl`);
    expect(scan.stdout).toContain(`call_${SHOWN}`);
    expect(scan.stdout).toContain(`x${SHOWN}`);
    expect(scan.stdout).toContain('u1\\u202e');
    if (env.FORCE_COLOR) expect(scan.stdout).toContain('\u001b[31m');

    const repair = await runCli(['repair', '--dry-run', file, ...args], { env });
    expect(repair.code).toBe(0);
    expectClean(repair, raw);
    expect(repair.stdout).toContain(`name-${SHOWN}.jsonl`);

    const error = `messages.2: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: call_${PAYLOAD}`;
    const explain = await runCli(['explain', error, dir, ...args], { env: { ...env, HOME: dir } });
    expectClean(explain, raw);
    expect(explain.stdout).toContain('call_\\x1b');
  });

  it.each(COLOURS)('merge-reports of a crafted report ($name)', async ({ args, env, raw }) => {
    const { dir, file } = craftedSession();
    const json = await runCli(['scan', file, '-r', 'json']);
    const document = JSON.parse(json.stdout) as { files: { path: string; findings: { rule: string; message: string; pointer: string }[] }[] };
    for (const entry of document.files) {
      entry.path = `../../${PAYLOAD}\u202etxt.jsonl`;
      for (const finding of entry.findings) {
        finding.message += `${PAYLOAD}\u2066`;
        finding.rule += PAYLOAD;
        finding.pointer += '\u009b2J';
      }
    }
    const report = join(dir, 'crafted.json');
    writeFileSync(report, JSON.stringify(document));
    const merged = await runCli(['merge-reports', report, ...args], { env });
    expect(merged.code).toBe(1);
    expectClean(merged, raw);
    expect(merged.stdout).toContain(`../../${SHOWN}\\u202etxt.jsonl`);
    expect(merged.stdout).toContain('\\x9b2J');
    // Machine formats keep the exact values.
    const again = await runCli(['merge-reports', report, '-r', 'json']);
    expect(JSON.parse(again.stdout).files[0].path).toBe(`../../${PAYLOAD}\u202etxt.jsonl`);
    expect(readFileSync(report, 'utf8')).toBe(JSON.stringify(document));
  });

  it.each(COLOURS)('the one-line error names the file with its controls shown ($name)', async ({ args, env, raw }) => {
    const dir = mkdtempSync(join(tmpdir(), 'td-escapes-'));
    const missing = await runCli(['scan', join(dir, `gone-${PAYLOAD}.jsonl`), ...args], { env });
    expect(missing.code).toBe(2);
    expectClean(missing, raw);
    expect(missing.stderr).toContain(`gone-${SHOWN}.jsonl`);
    expect(missing.stderr.trimEnd().split('\n')).toHaveLength(1);
    const report = await runCli(['merge-reports', join(dir, `r\u202e${PAYLOAD}.json`), ...args], { env });
    expect(report.code).toBe(2);
    expectClean(report, raw);
    expect(report.stderr).toContain(`r\\u202e${SHOWN}.json`);
  });
});
