// Bundles the compiled CLI (dist/, from tsc) into dist/bundle/, so that starting the CLI reads
// one file instead of about a hundred modules, and compiles from a V8 code cache made here:
// `npm run build` runs it after tsc.
//
//   node scripts/bundle.mjs
//
// dist/ stays as tsc wrote it: the library entry, the type declarations, what tests import.
// The CLI bundle is CommonJS: Node 20 has no compile cache for ES modules, and loading CommonJS
// skips the ES module loader's resolve and link steps, which cost more than the scan of a small
// file. Its dependencies are inside it, or, for those only some commands use, in vendor/ beside
// it; nothing is loaded from node_modules. Lazily imported commands stay lazy: esbuild runs a
// module's body only when its `import()` does. The two worker threads are bundles of their own
// (a worker is started by URL, so it cannot be part of the CLI's file), CommonJS too, each started
// from a small file that runs it through its code cache (`start-<worker>.cjs`).
//
// A code cache is V8's compiled code of a bundle after a training scan (bin/load-bundle.js
// explains how it is used).

import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { isBuiltin } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import loader from '../bin/load-bundle.js';

const { buildIdLine, CACHE_ENV, WORKER_CACHE_ENV, cacheFileFor } = loader;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'dist');
const OUT = path.join(DIST, 'bundle');

/** Compiled module → its bundle in OUT. */
const ENTRIES = {
  [path.join(DIST, 'cli.js')]: 'cli.cjs',
};
/** The same for the worker threads, each started from `start-<bundle>` (see startFile). */
const WORKERS = {
  [path.join(DIST, 'pipeline', 'load-worker.js')]: 'load-worker.cjs',
  [path.join(DIST, 'pipeline', 'scan-worker.js')]: 'scan-worker.cjs',
  [path.join(DIST, 'run', 'guard-repair-worker.js')]: 'guard-repair-worker.cjs',
};

/** What the training run scans: both formats, the default reporter, one thread. */
const TRAINING = ['scan', 'fixtures/demo', 'fixtures/claude-code', '--jobs', '1'];
/**
 * What the threads' training runs do, one run after another. The scan thread: every fixture with
 * `--jobs 2`. The load thread, started for one file, split in two however small: a file of each
 * format, scanned, and a dataset repaired. Each run's thread starts from the cache the run before
 * left and adds what it compiled (see startWorker in bin/load-bundle.js).
 */
const SPLIT = { TRANSCRIPT_DOCTOR_PARALLEL_MIN_BYTES: '1', TRANSCRIPT_DOCTOR_PARALLEL_MIN_LINE_BYTES: '0' };
const WORKER_TRAINING = [
  { args: ['scan', 'fixtures', '--jobs', '2'], env: {} },
  ...['demo/a72cb7ff-ffa6-4f12-993c-b24cb1219e7b.jsonl', ...['claude-code', 'codex', 'copilot-cli', 'gemini-cli', 'qwen-code'].map((agent) => `${agent}/missing-tool-result.jsonl`), 'requests/openai-chat-broken.jsonl']
    .map((file) => ({ args: ['scan', `fixtures/${file}`], env: SPLIT })),
  { args: ['repair', 'fixtures/requests/anthropic-broken.jsonl', '--dry-run'], env: SPLIT },
  guardTraining(),
];

/**
 * The guard's repair thread: a stand-in pi touches a copy of a session in a folder of its own, and
 * the guard repairs it after it exits (dry: the copy is removed with the folder when the build ends).
 */
function guardTraining() {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'td-bundle-guard-'));
  process.on('exit', () => fs.rmSync(folder, { recursive: true, force: true }));
  const session = path.join(folder, '2026-01-01T00-00-00-000Z_019a0001-aaaa-7bbb-8ccc-000000000001.jsonl');
  fs.copyFileSync(path.join(ROOT, 'fixtures', 'pi', 'tail-tool-call.jsonl'), session);
  const touch = `require('node:fs').utimesSync(process.argv[1], new Date(), new Date(Date.now() + 1000))`;
  return { args: ['guard', '--agent', 'pi', '--', process.execPath, '-e', touch, session], env: { PI_CODING_AGENT_SESSION_DIR: folder, PI_CODING_AGENT_DIR: folder } };
}

const URL_PATTERN = /new URL\(\s*(['"])([^'"]+)\1\s*,\s*import\.meta\.url\s*\)/g;
/** The URL of the bundle file running the code: a CommonJS bundle has no import.meta. */
const BUNDLE_URL = 'require("node:url").pathToFileURL(__filename)';

/** The file a relative URL in compiled module `from` names, as seen from OUT. */
function rebase(from, relative) {
  const target = path.resolve(path.dirname(from), relative);
  const worker = WORKERS[target];
  if (worker !== undefined) return `./${startFile(worker)}`;
  if (target.startsWith(DIST + path.sep) && target.endsWith('.js')) {
    throw new Error(`${path.relative(ROOT, from)}: ${relative} is a module loaded by URL; add it to WORKERS in scripts/bundle.mjs`);
  }
  return path.relative(OUT, target).split(path.sep).join('/');
}

/** Rewrites `new URL('…', import.meta.url)` in our compiled modules for the bundle's place; refuses any other import.meta. */
const rebaseUrls = {
  name: 'rebase-import-meta-urls',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /\.js$/ }, async ({ path: file }) => {
      if (!file.startsWith(DIST + path.sep)) return undefined;
      const source = await fs.promises.readFile(file, 'utf8');
      let rewritten = 0;
      const contents = source.replace(URL_PATTERN, (_, quote, relative) => {
        rewritten += 1;
        return `new URL(${quote}${rebase(file, relative)}${quote}, ${BUNDLE_URL})`;
      });
      const uses = source.match(/import\.meta/g)?.length ?? 0;
      if (uses !== rewritten) {
        throw new Error(`${path.relative(ROOT, file)} uses import.meta in a way scripts/bundle.mjs cannot rebase`);
      }
      return { contents, loader: 'js' };
    });
  },
};

/** The licence texts of every package inside the bundles, which their licences ask to ship with them. */
function thirdPartyNotices(inputs) {
  const packages = new Map(); // folder → name; a nested copy of a package is a package of its own
  for (const input of inputs) {
    const match = /^(.*node_modules\/)((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) packages.set(path.join(ROOT, match[1], match[2]), match[2]);
  }
  const sections = new Set();
  for (const [dir, name] of packages) {
    const { version, license } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const file = fs.readdirSync(dir).find((entry) => /^(licen[cs]e|copying)/i.test(entry));
    if (file === undefined) throw new Error(`${name} has no licence file to ship with the bundle`);
    sections.add(`${name}@${version} (${license})\n\n${fs.readFileSync(path.join(dir, file), 'utf8').trim()}\n`);
  }
  const sorted = [...sections].sort();
  return `Packages bundled into transcript-doctor's dist/bundle/, with their licences.\n\n${sorted.join('\n' + '-'.repeat(72) + '\n\n')}`;
}

/** Runs the CLI once with the training scan, which leaves V8's code cache of the bundle beside it. */
function writeCodeCache(bundle) {
  const cache = cacheFileFor(bundle, fs.readFileSync(bundle, 'utf8'));
  train(TRAINING, { [CACHE_ENV]: cache });
  if (!fs.existsSync(cache)) throw new Error(`the training run left no code cache for ${path.basename(bundle)}`);
}

/** The threads' training runs, which leave each thread's code cache beside its bundle. */
function writeWorkerCodeCaches() {
  for (const { args, env } of WORKER_TRAINING) train(args, { ...env, [WORKER_CACHE_ENV]: '1' });
  for (const bundle of Object.values(WORKERS)) {
    const file = path.join(OUT, bundle);
    if (!fs.existsSync(cacheFileFor(file, fs.readFileSync(file, 'utf8')))) throw new Error(`no training run started ${bundle}`);
  }
}

function train(args, env) {
  // A scan cache of its own, empty: every training run reads its files (an answer from the cache would start no thread).
  const scanCache = fs.mkdtempSync(path.join(os.tmpdir(), 'td-train-cache-'));
  const run = spawnSync(process.execPath, ['bin/transcript-doctor.js', ...args], {
    // Without NODE_OPTIONS: V8 flags given there would make a cache that plain runs refuse.
    cwd: ROOT, env: { ...withoutNodeOptions(process.env), ...env, CI: '1', XDG_CACHE_HOME: scanCache }, stdio: ['ignore', 'ignore', 'pipe'], timeout: 60_000,
  });
  fs.rmSync(scanCache, { recursive: true, force: true });
  // 0 (clean) and 1 (findings) are answers; anything else means a broken bundle.
  if (run.status !== 0 && run.status !== 1) {
    throw new Error(`the training run \`${args.join(' ')}\` exited ${run.status ?? run.signal}: ${String(run.stderr).trim().slice(-2000)}`);
  }
}

/** The file a worker thread is started from: it runs the thread's bundle through its code cache. */
function startFile(bundle) {
  return `start-${bundle}`;
}

function writeStartFile(bundle) {
  const text = [
    `// Starts the thread of ${bundle} through its code cache (bin/load-bundle.js; made by scripts/bundle.mjs).`,
    `'use strict';`,
    `require('../../bin/load-bundle.js').startWorker(require('node:path').join(__dirname, ${JSON.stringify(bundle)}));`,
    '',
  ].join('\n');
  fs.writeFileSync(path.join(OUT, startFile(bundle)), text);
}

function withoutNodeOptions(env) {
  const { NODE_OPTIONS: _, ...rest } = env;
  return rest;
}

/** esbuild options every bundle shares. */
const COMMON = {
  outdir: OUT,
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Comments and blank space are most of the dependencies' source: gone, they cost nothing to read.
  minifyWhitespace: true,
  // Licence comments go to the notices file, with the full licence texts.
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
};

/** esbuild's entry points for a map of compiled module → bundle. */
function entriesOf(bundles) {
  return Object.entries(bundles).map(([input, output]) => ({ in: input, out: output.slice(0, -'.cjs'.length) }));
}

/**
 * Packages the CLI needs only for some commands or options, each bundled into a file of its own
 * in vendor/ and required when first used: the CLI's file, read at every start, stays small.
 * (The secret detectors of `verify` alone are more than all the rest.)
 */
const VENDOR = ['@secretlint/core', '@secretlint/secretlint-rule-preset-recommend', 'fast-glob', 'ora', 'picomatch'];
const vendorFile = (name) => `vendor/${name.replace(/^@/, '').replace(/\//g, '-')}`;

const vendorOutside = {
  name: 'vendor-outside',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: new RegExp(`^(${VENDOR.join('|')})$`) }, ({ path: name }) => ({ path: `./${vendorFile(name)}.cjs`, external: true }));
  },
};

/**
 * `debug` (under secretlint) asks for supports-color inside a try, for colours this tool never
 * prints: it gets an empty module, so the bundle neither carries the package nor looks for one at
 * run time (which would find whatever a user's project has installed).
 */
const noSupportsColor = {
  name: 'no-supports-color',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^supports-color$/ }, () => ({ path: 'supports-color', namespace: 'empty' }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
  },
};

/**
 * Node's modules that loading the CLI would otherwise require at once, for commands and sizes a
 * small scan never reaches (hashes, child processes, worker threads, V8's flags): each is
 * required at the first use of one of its exports, which saves a small scan a few milliseconds of
 * its start (see "Performance" in the README).
 */
const LAZY_BUILTINS = ['node:crypto', 'node:child_process', 'node:worker_threads', 'node:v8'];

/**
 * Each of LAZY_BUILTINS as a module of stand-ins, one per function the module exports in the Node
 * that builds, each requiring the module at its first call (or `new`) and passing it on. Written as
 * an ES module, so the bundle takes its names as they are instead of copying every one into each
 * importer. An import of something else from these modules (a value, not a function) fails the
 * build; a stand-in is no class to extend or to test with instanceof (nothing in the CLI does). Only
 * the CLI's bundle: a worker starts when it has work, and uses what it imports.
 */
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(pluginBuild) {
    const names = new RegExp(`^(${LAZY_BUILTINS.join('|')})$`);
    pluginBuild.onResolve({ filter: names }, ({ path: name, namespace }) => (namespace === 'lazy-builtin' ? { path: name, external: true } : { path: name, namespace: 'lazy-builtin' }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, async ({ path: name }) => {
      const module = await import(name);
      const functions = Object.keys(module).filter((key) => key !== 'default' && typeof module[key] === 'function');
      const standIns = functions.map((key) => `export function ${key}(...args) { const real = load().${key}; return new.target === undefined ? real.apply(this, args) : new real(...args); }`);
      return { contents: [`let loaded;`, `const load = () => (loaded ??= require(${JSON.stringify(name)}));`, ...standIns, ''].join('\n'), loader: 'js' };
    });
  },
};

/**
 * chalk detects the terminal's colours as it loads (its copy of supports-color, which loads
 * node:tty and node:os). The CLI never asks it to: it chooses the level itself (useColor:
 * --no-color, NO_COLOR, FORCE_COLOR, whether the stream is a terminal) and gives it to each Chalk
 * it makes. So the detection is left out, and a scan that prints no colour starts without it.
 */
const chalkWithoutDetection = {
  name: 'chalk-without-detection',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^#supports-color$/ }, ({ importer }) => (importer.includes(`${path.sep}chalk${path.sep}`) ? { path: 'supports-color', namespace: 'no-detection' } : undefined));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'no-detection' }, () => ({ contents: 'export default { stdout: false, stderr: false };\nexport const createSupportsColor = () => false;\n', loader: 'js' }));
  },
};

/** Fails the build if a bundle still imports something at run time besides Node's own modules and vendor/. */
function checkSelfContained(metafile) {
  for (const [output, { imports }] of Object.entries(metafile.outputs)) {
    const outside = imports.filter((entry) => entry.external && !isBuiltin(entry.path) && !entry.path.startsWith('./vendor/'));
    if (outside.length > 0) throw new Error(`${output} imports ${outside.map((entry) => entry.path).join(', ')} at run time`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  fs.rmSync(OUT, { recursive: true, force: true });
  const cjs = {
    ...COMMON,
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
    // import() becomes require(): a bundle runs as a vm.Script, which has no loader for import().
    supported: { 'dynamic-import': false },
  };
  const cli = await build({ ...cjs, entryPoints: entriesOf(ENTRIES), plugins: [rebaseUrls, vendorOutside, lazyBuiltins, chalkWithoutDetection] });
  // A scan thread masks a timeline's text (scan --reporter html) with secretlint: loaded from vendor/ when first used.
  const workers = await build({ ...cjs, entryPoints: entriesOf(WORKERS), plugins: [rebaseUrls, vendorOutside] });
  const vendor = await build({
    ...COMMON,
    entryPoints: VENDOR.map((name) => ({ in: name, out: vendorFile(name) })),
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
    plugins: [noSupportsColor],
  });
  const built = [cli, workers, vendor];
  for (const { metafile } of built) checkSelfContained(metafile);
  fs.writeFileSync(path.join(OUT, 'THIRD-PARTY-NOTICES.txt'), thirdPartyNotices(built.flatMap(({ metafile }) => Object.keys(metafile.inputs))));
  // The build id ties each code cache to its exact bundle: V8 itself only compares source lengths.
  for (const bundle of [...Object.values(ENTRIES), ...Object.values(WORKERS)]) {
    const file = path.join(OUT, bundle);
    const source = fs.readFileSync(file, 'utf8');
    // One character beyond ASCII (a regex literal's, which esbuild keeps) makes V8 hold the whole
    // source as two-byte text: reading it and checking its code cache cost ~15 ms more at each start.
    const wide = /[^\x00-\x7f]/.exec(source);
    if (wide !== null) throw new Error(`${bundle} holds ${JSON.stringify(wide[0])} near ${JSON.stringify(source.slice(Math.max(0, wide.index - 60), wide.index + 20))}: write it as a \\u escape in the source`);
    fs.writeFileSync(file, buildIdLine(createHash('sha256').update(source).digest('hex').slice(0, 16)) + source);
  }
  for (const bundle of Object.values(WORKERS)) writeStartFile(bundle);
  writeCodeCache(path.join(OUT, 'cli.cjs'));
  writeWorkerCodeCaches();
}
