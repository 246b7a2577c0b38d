import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from './run-cli.js';

/** package.json is the one place the version is written; everything else must say the same. */
const VERSION: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
const FIXTURE = join(ROOT, 'fixtures', 'pi', 'missing-tool-result.jsonl');

describe('the version comes from package.json', () => {
  it('is a version at all (so the checks below compare something)', () => {
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('--version and -v print it', async () => {
    for (const flag of ['--version', '-v']) expect(await runCli([flag])).toMatchObject({ code: 0, stdout: `${VERSION}\n` });
  });

  it('the JSON report names it in tool.version, and the SARIF driver in its version', async () => {
    const json = JSON.parse((await runCli(['scan', FIXTURE, '-r', 'json'])).stdout);
    expect(json.tool).toEqual({ name: 'transcript-doctor', version: VERSION });
    const sarif = JSON.parse((await runCli(['scan', FIXTURE, '-r', 'sarif'])).stdout);
    expect(sarif.runs[0].tool.driver).toMatchObject({ name: 'transcript-doctor', version: VERSION });
    const repaired = JSON.parse((await runCli(['repair', '--dry-run', FIXTURE, '-r', 'json'])).stdout);
    expect(repaired.tool.version).toBe(VERSION);
  });

  it('the library report names it too', { timeout: 60_000 }, async () => {
    const { scan } = await import(join(ROOT, 'dist', 'index.js'));
    const report = await scan(FIXTURE);
    expect(report.tool.version).toBe(VERSION);
  });

  it('the OpenClaw plugin package says the same', () => {
    const plugin = JSON.parse(readFileSync(join(ROOT, 'extensions', 'openclaw', 'package.json'), 'utf8'));
    expect(plugin.version).toBe(VERSION);
  });

  it('docs that spell a release (the tarball, an action or pre-commit tag, a report) spell this one', () => {
    // The spellings a reader copies; a bump that forgets one of them fails here.
    const spellings = [
      /transcript-doctor-(\d+\.\d+\.\d+[\w.-]*?)\.tgz/g,
      /transcript-doctor@v(\d+\.\d+\.\d+[\w.-]*)/g,
      /^\s*rev: v(\d+\.\d+\.\d+[\w.-]*)/gm,
      /"name": "transcript-doctor", "version": "([^"]+)"/g,
    ];
    const found: string[] = [];
    for (const file of [join(ROOT, 'README.md'), ...markdownUnder(join(ROOT, 'docs'))]) {
      const text = readFileSync(file, 'utf8');
      for (const pattern of spellings) {
        for (const match of text.matchAll(pattern)) found.push(`${relative(ROOT, file)}: ${match[1]}`);
      }
    }
    expect(found.length).toBeGreaterThan(3);
    expect(found.filter((spelling) => !spelling.endsWith(`: ${VERSION}`))).toEqual([]);
  });
});

function markdownUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(folder, name));
}
