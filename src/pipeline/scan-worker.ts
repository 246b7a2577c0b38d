import { parentPort, workerData } from 'node:worker_threads';
import { codeOf } from '../errors.js';
import { formats } from '../formats/registry.js';
import type { SeverityOverride } from '../io/config.js';
import { configureRules } from '../rules/configure.js';
import { rules as allRules } from '../rules/index.js';
import { scanFile } from './scan.js';

// A worker of `scan --jobs`: scans the files it is sent, one at a time, with the run's rules.
const { overrides, format } = workerData as { overrides: Record<string, SeverityOverride>; format?: string };
const rules = configureRules(allRules, overrides);
const chosen = formats.find((candidate) => candidate.name === format);

parentPort!.on('message', async ({ index, path }: { index: number; path: string }) => {
  try {
    parentPort!.postMessage({ index, report: await scanFile(path, rules, chosen, false) });
  } catch (error) {
    parentPort!.postMessage({ index, error: { message: error instanceof Error ? error.message : String(error), code: codeOf(error) } });
  }
});
