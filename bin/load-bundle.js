// Loads the bundled CLI (dist/bundle/cli.cjs, made by scripts/bundle.mjs) and its worker threads
// through V8's code cache: compiling a bundle from source is a large part of a small scan's
// start-up, and of the time a second thread takes to start reading. Each cache is made at build
// time by a training run; V8 checks that it was made by the same V8 with the same flags and
// otherwise compiles from source, so a stale or foreign cache costs time, never correctness.
// The build id on a bundle's first line names its cache, because V8 only compares lengths.
//
// CommonJS (bin/package.json says so), like the bundle: the ES module loader costs more to start
// than the scan of a small session.
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { basename, dirname, join } = require('node:path');
const { Script } = require('node:vm');

/** Set to a path, the run writes the code cache there when the command has finished (the build's training run). */
const CACHE_ENV = 'TRANSCRIPT_DOCTOR_WRITE_CODE_CACHE';
/** Set, every worker thread writes its bundle's code cache beside it (the build's training run of the threads). */
const WORKER_CACHE_ENV = 'TRANSCRIPT_DOCTOR_WRITE_WORKER_CODE_CACHE';
const BUILD_ID = /^\/\/# transcript-doctor build ([0-9a-f]+)\n/;

const buildIdLine = (id) => `//# transcript-doctor build ${id}\n`;

/** Where the code cache of this bundle source lives (`cli.cjs` → `cli-<id>.v8cache`); undefined for a bundle without a build id. */
function cacheFileFor(bundle, source) {
  const id = BUILD_ID.exec(source)?.[1];
  return id === undefined ? undefined : join(dirname(bundle), `${basename(bundle, '.cjs')}-${id}.v8cache`);
}

/**
 * A CommonJS bundle compiled with its code cache when there is one, unless the CLI's training run
 * is making it. A thread's training run takes the cache the run before it left: what V8 took
 * from a cache it writes again, so each run adds to what the others compiled.
 */
function compileBundle(bundle) {
  // latin1: the build keeps every bundle ASCII (scripts/bundle.mjs), and Node reads latin1 several times faster than UTF-8.
  const source = readFileSync(bundle, 'latin1');
  const cacheFile = cacheFileFor(bundle, source);
  let cachedData;
  if (cacheFile !== undefined && process.env[CACHE_ENV] === undefined) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      // No cache (a build without its training run): compile from source.
    }
  }
  const script = new Script(Module.wrap(source), { filename: bundle, cachedData });
  return {
    script,
    cacheFile,
    /** true: V8 refused the cache; false: used it; undefined: there was none. */
    cacheRejected: cachedData === undefined ? undefined : script.cachedDataRejected,
  };
}

/** Runs a compiled bundle the way require() would run its file; returns its exports. */
function run(script, bundle) {
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, Module.createRequire(bundle), module, bundle, dirname(bundle));
  return module.exports;
}

/** Runs a CommonJS bundle the way require() would, with its code cache when there is one. */
function loadBundle(bundle) {
  const { script, cacheRejected } = compileBundle(bundle);
  return {
    exports: run(script, bundle),
    cacheRejected,
    writeCache: (path) => writeFileSync(path, script.createCachedData()),
  };
}

/**
 * Runs a worker thread's bundle (from the small file the thread is started with). In a training
 * run the thread writes its code cache each time it sends a message: its last message ends its
 * work, so the last cache written holds all it compiled, and is on disk before the main thread
 * hears of it.
 */
function startWorker(bundle) {
  const { script, cacheFile } = compileBundle(bundle);
  if (process.env[WORKER_CACHE_ENV] !== undefined && cacheFile !== undefined) {
    const { parentPort } = require('node:worker_threads');
    const post = parentPort.postMessage.bind(parentPort);
    parentPort.postMessage = (message) => {
      writeFileSync(cacheFile, script.createCachedData());
      post(message);
    };
  }
  run(script, bundle);
}

module.exports = { CACHE_ENV, WORKER_CACHE_ENV, buildIdLine, cacheFileFor, compileBundle, loadBundle, startWorker };
