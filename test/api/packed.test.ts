import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli/run-cli.js';

/**
 * The package as users get it: packed, installed into a fresh folder with no network (its
 * dependencies come from the npm cache through a lockfile made from ours), then used from there,
 * both the bin and the typed API.
 */
const FIXTURE = join(ROOT, 'fixtures', 'pi', 'missing-tool-result.jsonl');
let app: string;

function run(command: string, args: string[], cwd: string, input?: string) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', input, timeout: 120_000, env: { ...process.env, CI: '1', npm_config_audit: 'false', npm_config_fund: 'false' } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The consumer's lockfile: the tarball, and our lockfile's entries for everything it depends on at run time. */
function consumerLock(tarball: string) {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; link?: boolean }> };
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const spec = `file:${tarball}`;
  const packages: Record<string, unknown> = {
    '': { name: 'app', dependencies: { 'transcript-doctor': spec } },
    'node_modules/transcript-doctor': { version: pkg.version, resolved: spec, license: pkg.license, dependencies: pkg.dependencies, bin: pkg.bin, engines: pkg.engines },
  };
  for (const [path, entry] of Object.entries(lock.packages)) if (path !== '' && !entry.dev && !entry.link) packages[path] = entry;
  return { name: 'app', lockfileVersion: 3, requires: true, packages };
}

const CONSUMER = `import { Readable } from 'node:stream';
import { canonicalize, failingFiles, repair, scan, UserError, type JsonReport, type RepairOptions, type TranscriptInput } from 'transcript-doctor';

const path = process.argv[2]!;
const fromPath: JsonReport = await scan(path);
const input: TranscriptInput = Readable.from([await import('node:fs').then((fs) => fs.readFileSync(path))]);
const fromStream = await scan(input, { jobs: 1 });
const options: RepairOptions = { dryRun: true, mode: 'synthetic' };
const repaired = await repair(path, options);
const canonical = await canonicalize(path, { check: true });
let usage = '';
await repair(path, {}).catch((error: unknown) => (usage = error instanceof UserError ? error.message : 'not a UserError'));
const errors: number = fromPath.summary.errors;
console.log(JSON.stringify({ errors, stream: fromStream.summary.errors, failing: failingFiles(fromPath), changed: repaired.summary.changed, canonicalFiles: canonical.summary.files, usage }));

/** Never called: only compiled, to show the types refuse what the API refuses. */
export function typeChecks(): void {
  // @ts-expect-error: mode is discard or synthetic
  void repair(path, { dryRun: true, mode: 'maybe' });
  // @ts-expect-error: a report's summary has no such count
  void fromPath.summary.lines;
  // @ts-expect-error: jobs is a number in the API
  void scan(path, { jobs: 'two' });
}
`;

beforeAll(() => {
  const root = mkdtempSync(join(tmpdir(), 'td-packed-'));
  const pack = run('npm', ['pack', '--ignore-scripts', '--pack-destination', root], ROOT);
  expect(pack.code, pack.stderr).toBe(0);
  const tarball = join(root, readdirSync(root).find((name) => name.endsWith('.tgz'))!);
  app = join(root, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module', dependencies: { 'transcript-doctor': `file:${tarball}` } }));
  writeFileSync(join(app, 'package-lock.json'), JSON.stringify(consumerLock(tarball)));
  const install = run('npm', ['ci', '--offline', '--ignore-scripts'], app);
  expect(install.code, install.stderr).toBe(0);
}, 180_000);

describe('the packed package, installed', () => {
  it('runs the bin', () => {
    const result = run(join(app, 'node_modules', '.bin', 'transcript-doctor'), ['scan', FIXTURE, '-r', 'json'], app);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).files[0].findings.map((f: { rule: string }) => f.rule)).toContain('missing-tool-result');
    const help = run(join(app, 'node_modules', '.bin', 'transcript-doctor'), ['--help'], app);
    expect(help.stdout).toContain('merge-reports');
  });

  it('type-checks a consumer against the shipped declarations with tsc, then runs it', () => {
    writeFileSync(join(app, 'check.ts'), CONSUMER);
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, outDir: 'out', skipLibCheck: false, typeRoots: [join(ROOT, 'node_modules', '@types')], types: ['node'] },
        files: ['check.ts'],
      }),
    );
    const tsc = run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], app);
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);
    const result = run(process.execPath, [join('out', 'check.js'), FIXTURE], app);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ errors: 1, stream: 1, failing: [FIXTURE], changed: 1, canonicalFiles: 1, usage: 'repair needs output, inPlace or dryRun' });
  }, 180_000);

  it('exports only the entry point: internals stay private', () => {
    const result = run(process.execPath, ['--input-type=module', '-e', "await import('transcript-doctor/dist/cli.js')"], app);
    expect(result.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED');
  });
});
