// Loads the bundled CLI (dist/bundle/cli.cjs, made by scripts/bundle.mjs) through V8's code cache:
// compiling the bundle from source is a large part of a small scan's start-up. The cache is made
// at build time by a training run; V8 checks that it was made by the same V8 with the same flags
// and otherwise compiles from source, so a stale or foreign cache costs time, never correctness.
// The build id on the bundle's first line names the cache, because V8 only compares lengths.
//
// CommonJS (bin/package.json says so), like the bundle: the ES module loader costs more to start
// than the scan of a small session.
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');

/** Set to a path, the run writes the code cache there when the command has finished (the build's training run). */
const CACHE_ENV = 'TRANSCRIPT_DOCTOR_WRITE_CODE_CACHE';
const BUILD_ID = /^\/\/# transcript-doctor build ([0-9a-f]+)\n/;

const buildIdLine = (id) => `//# transcript-doctor build ${id}\n`;

/** Where the code cache of this bundle source lives; undefined for a bundle without a build id. */
function cacheFileFor(bundle, source) {
  const id = BUILD_ID.exec(source)?.[1];
  return id === undefined ? undefined : join(dirname(bundle), `cli-${id}.v8cache`);
}

/** Runs a CommonJS bundle the way require() would, with its code cache when there is one. */
function loadBundle(bundle) {
  const source = readFileSync(bundle, 'utf8');
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
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, Module.createRequire(bundle), module, bundle, dirname(bundle));
  return {
    exports: module.exports,
    /** true: V8 refused the cache; false: used it; undefined: there was none. */
    cacheRejected: cachedData === undefined ? undefined : script.cachedDataRejected,
    writeCache: (path) => writeFileSync(path, script.createCachedData()),
  };
}

module.exports = { CACHE_ENV, buildIdLine, cacheFileFor, loadBundle };
