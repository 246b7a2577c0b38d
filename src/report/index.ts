import type { Reporter } from './types.js';

/** Reporters load on demand: the stylish one pulls in chalk, which a JSON run never needs. */
const loaders: Record<string, () => Promise<Reporter>> = {
  stylish: async () => (await import('./stylish.js')).stylishReporter,
  json: async () => (await import('./json.js')).jsonReporter,
  sarif: async () => (await import('./sarif.js')).sarifReporter,
  github: async () => (await import('./github.js')).githubReporter,
  junit: async () => (await import('./junit.js')).junitReporter,
  ndjson: async () => (await import('./ndjson.js')).ndjsonReporter,
  html: async () => (await import('./html/index.js')).htmlReporter,
};

export const reporterNames = Object.keys(loaders);

export function loadReporter(name: string): Promise<Reporter> | undefined {
  return loaders[name]?.();
}
