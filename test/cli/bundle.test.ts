import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, runNode, type CliResult } from './run-cli.js';

// The installed CLI is bin/ plus dist/bundle/ (scripts/bundle.mjs). These tests run a copy of just
// those, without node_modules and without the rest of dist/, so anything the bundle still loads
// from outside itself fails here instead of working by accident in the repository.

let pkg: string;
let work: string;

beforeAll(() => {
  pkg = mkdtempSync(join(tmpdir(), 'td-bundle-'));
  cpSync(join(ROOT, 'bin'), join(pkg, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'dist', 'bundle'), join(pkg, 'dist', 'bundle'), { recursive: true });
  copyFileSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
  work = mkdtempSync(join(tmpdir(), 'td-bundle-work-'));
});

afterAll(() => {
  rmSync(pkg, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

function runCopy(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return runCli(args, { bin: join(pkg, 'bin', 'transcript-doctor.js'), cwd: work, env });
}

/** The dist/ files that loaded modules or were loaded (a bundle run from its cache is a parent, not a load), from NODE_DEBUG=module. */
function distFiles(stderr: string): string[] {
  const files = [...stderr.matchAll(/(?:load "|parent: )(\S*?\/dist\/[^\s"]+)/g)].map((match) => match[1]!.slice(match[1]!.indexOf('/dist/') + 1));
  return [...new Set(files)].sort();
}

/** A pi session of about `bytes`: one user message after another, each the child of the last. */
function bigSession(bytes: number): string {
  const lines = [JSON.stringify({ type: 'session', version: 3, id: 'b0000000-0000-4000-8000-000000000000', timestamp: '2026-03-02T09:00:00.000Z', cwd: '/workspace' })];
  let parent: string | null = null;
  for (let n = 0; lines.join('\n').length < bytes && n < 100_000; n += 200) {
    for (let k = n; k < n + 200; k++) {
      const id = k.toString(16).padStart(8, '0');
      const message = { role: 'user', content: [{ type: 'text', text: `note ${k} `.repeat(100) }], timestamp: 1772442000000 + k };
      lines.push(JSON.stringify({ type: 'message', id, parentId: parent, timestamp: '2026-03-02T09:00:00.000Z', message }));
      parent = id;
    }
  }
  return lines.join('\n') + '\n';
}

describe('the bundled CLI', () => {
  it('scans with nothing but bin/ and dist/bundle/, and reports what the repository CLI reports', async () => {
    const input = join(ROOT, 'fixtures', 'demo');
    const [copy, repo] = await Promise.all([runCopy(['scan', input, '-r', 'json']), runCli(['scan', input, '-r', 'json'])]);
    expect(copy.stderr).toBe('');
    expect(copy.code).toBe(1);
    expect(copy.stdout).toBe(repo.stdout);
  });

  it('reads the version from package.json, two folders above the bundle', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(await runCopy(['--version'])).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it('loads the packages kept in vendor/ when a command needs them (globs, ignores, sarif)', async () => {
    writeFileSync(join(work, 'transcript-doctor.config.json'), JSON.stringify({ ignores: ['**/skip-*'] }));
    const glob = join(ROOT, 'fixtures', 'pi', '*.jsonl').split('\\').join('/');
    const result = await runCopy(['scan', glob, '-r', 'sarif']);
    rmSync(join(work, 'transcript-doctor.config.json'));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const sarif = JSON.parse(result.stdout) as { runs: Array<{ tool: { driver: { version: string } } }> };
    expect(sarif.runs[0]!.tool.driver.version).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });

  it('runs --jobs on the bundled scan worker and gives the one-thread report', async () => {
    const dir = join(work, 'many');
    mkdirSync(dir);
    const fixtures = readdirSync(join(ROOT, 'fixtures', 'pi')).filter((name) => name.endsWith('.jsonl'));
    for (let copy = 0; copy < 3; copy++) for (const name of fixtures) copyFileSync(join(ROOT, 'fixtures', 'pi', name), join(dir, `${copy}-${name}`));
    // --no-cache: every file read, on the worker too.
    const one = await runCopy(['scan', dir, '--jobs', '1', '-r', 'json', '--no-cache']);
    const two = await runCopy(['scan', dir, '--jobs', '2', '-r', 'json', '--no-cache'], { NODE_DEBUG: 'module' });
    expect(one.code).toBe(1);
    expect(two.stdout).toBe(one.stdout);
    expect(distFiles(two.stderr)).toEqual(['dist/bundle/cli.cjs', 'dist/bundle/scan-worker.cjs', 'dist/bundle/start-scan-worker.cjs']);
  });

  it('decodes the second half of a large file on the bundled load worker', async () => {
    const file = join(work, 'big.jsonl');
    writeFileSync(file, bigSession(5 << 20));
    const sequential = await runCopy(['scan', file, '-r', 'json', '--no-cache'], { TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: String(1 << 40) });
    const split = await runCopy(['scan', file, '-r', 'json', '--no-cache'], { TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: '1', TRANSCRIPT_DOCTOR_PARALLEL_MIN_LINE_BYTES: '0', NODE_DEBUG: 'module' });
    expect(sequential.code).toBe(0);
    expect(split.stdout).toBe(sequential.stdout);
    expect(distFiles(split.stderr)).toEqual(['dist/bundle/cli.cjs', 'dist/bundle/load-worker.cjs', 'dist/bundle/start-load-worker.cjs']);
  });

  it("leaves Node's hashing, child process, worker and V8 modules unloaded in a small scan, until something uses them", async () => {
    // Preloaded, it lists at exit the modules among those the bundle requires lazily (scripts/bundle.mjs).
    const hook = join(work, 'loaded.cjs');
    writeFileSync(hook, "process.on('exit', () => process.stderr.write(process.moduleLoadList.filter((m) => /^NativeModule (crypto|child_process|worker_threads|v8)$/.test(m)).map((m) => m.slice(13)).sort().join(' ')));\n");
    const loaded = async (args: string[]) => (await runNode(['--require', hook, join(pkg, 'bin', 'transcript-doctor.js'), ...args], { cwd: work, env: { ...process.env, CI: '1' } })).stderr;
    const small = join(ROOT, 'fixtures', 'demo', 'a72cb7ff-ffa6-4f12-993c-b24cb1219e7b.jsonl');
    expect(await loaded(['scan', small, '--no-cache'])).toBe('');
    // The scan cache hashes each file's ends (docs/cache.md); the JSON report carries the rule set's hash.
    expect(await loaded(['scan', small])).toBe('crypto');
    expect(await loaded(['scan', small, '-r', 'json', '--no-cache'])).toBe('crypto');
  });
});

describe('a checkout without the bundle', () => {
  it('says to build, in one line, with exit code 2', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'td-bundle-missing-'));
    try {
      cpSync(join(ROOT, 'bin'), join(bare, 'bin'), { recursive: true });
      const result = await runCli(['scan', join(ROOT, 'fixtures', 'demo')], { bin: join(bare, 'bin', 'transcript-doctor.js') });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`transcript-doctor: ${join(bare, 'dist', 'bundle', 'cli.cjs')} is missing; run \`npm run build\` first\n`);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});

describe('the code cache', () => {
  const loadInChild = (bundleRoot: string): Promise<CliResult> =>
    runNode([
      '-e',
      `const { loadBundle } = require(${JSON.stringify(join(bundleRoot, 'bin', 'load-bundle.js'))});
        console.log(String(loadBundle(${JSON.stringify(join(bundleRoot, 'dist', 'bundle', 'cli.cjs'))}).cacheRejected));`,
    ]);

  it('is made by the build for this Node and taken by V8', async () => {
    expect(await loadInChild(ROOT)).toMatchObject({ code: 0, stdout: 'false\n' });
  });

  it("is made for each worker thread's bundle too, and taken by V8", async () => {
    // Compiled only: run outside a worker thread, a worker's bundle would fail at once.
    const compiled = await runNode([
      '-e',
      `const { compileBundle } = require(${JSON.stringify(join(ROOT, 'bin', 'load-bundle.js'))});
        for (const name of ['load-worker.cjs', 'scan-worker.cjs']) console.log(name, compileBundle(require('node:path').join(${JSON.stringify(join(ROOT, 'dist', 'bundle'))}, name)).cacheRejected);`,
    ]);
    expect(compiled).toMatchObject({ code: 0, stdout: 'load-worker.cjs false\nscan-worker.cjs false\n' });
  });

  it('is refused, and the CLI and its threads still work, when the cache files are garbage', async () => {
    const bundleDir = join(pkg, 'dist', 'bundle');
    const caches = readdirSync(bundleDir).filter((name) => name.endsWith('.v8cache'));
    expect(caches.map((name) => name.replace(/-[0-9a-f]+\.v8cache$/, '')).sort()).toEqual(['cli', 'guard-repair-worker', 'load-worker', 'scan-worker']);
    const good = caches.map((name) => readFileSync(join(bundleDir, name)));
    try {
      caches.forEach((name, k) => writeFileSync(join(bundleDir, name), Buffer.alloc(good[k]!.length, 0x5a)));
      expect(await loadInChild(pkg)).toMatchObject({ code: 0, stdout: 'true\n' });
      const result = await runCopy(['scan', join(ROOT, 'fixtures', 'demo'), '-r', 'json']);
      expect(result).toMatchObject({ code: 1, stderr: '' });
      expect(JSON.parse(result.stdout).summary.files).toBe(4);
      const split = await runCopy(['scan', join(ROOT, 'fixtures', 'demo'), '-r', 'json', '--jobs', '2', '--no-cache'], { TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: '1', TRANSCRIPT_DOCTOR_PARALLEL_MIN_LINE_BYTES: '0' });
      expect(split).toMatchObject({ code: 1, stderr: '', stdout: result.stdout });
    } finally {
      caches.forEach((name, k) => writeFileSync(join(bundleDir, name), good[k]!));
    }
  });

});
