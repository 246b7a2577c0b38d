import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { UserError } from '../errors.js';

/** One transcript to read: a file path, or standard input. */
export type Input = { kind: 'file'; path: string } | { kind: 'stdin'; path: '-' };

const IGNORE = ['**/node_modules/**'];

/** fast-glob is loaded on first use: scanning named files should not pay for it. */
async function glob() {
  return (await import('fast-glob')).default;
}

/**
 * Files, directories (searched for `**\/*.jsonl`), glob patterns and `-` become a list of
 * inputs, each file once, in the order given (directory and glob matches sorted). Files matching
 * an ignore pattern (absolute globs, from the project config) are left out.
 */
export async function expandInputs(args: readonly string[], ignores: readonly string[] = []): Promise<Input[]> {
  const inputs: Input[] = [];
  const seen = new Set<string>();
  const ignored = ignores.length === 0 ? () => false : (await import('picomatch')).default([...ignores], { dot: true });
  const add = (path: string): void => {
    if (seen.has(path) || ignored(resolve(path))) return;
    seen.add(path);
    inputs.push({ kind: 'file', path });
  };
  for (const arg of args) {
    if (arg === '-') {
      if (!seen.has('-')) inputs.push({ kind: 'stdin', path: '-' });
      seen.add('-');
      continue;
    }
    const info = await stat(arg).catch(() => undefined);
    if (info?.isDirectory()) {
      const found = await findTranscripts(arg);
      if (found.length === 0) throw new UserError(`no *.jsonl files in directory ${arg}`);
      found.forEach(add);
    } else if (info !== undefined) {
      add(arg);
    } else if ((await glob()).isDynamicPattern(arg)) {
      const fg = await glob();
      const found = (await fg(arg, { onlyFiles: true, ignore: IGNORE })).sort();
      if (found.length === 0) throw new UserError(`no files match ${arg}`);
      found.forEach(add);
    } else {
      throw new UserError(`${arg}: no such file or directory`);
    }
  }
  return inputs;
}

async function findTranscripts(directory: string): Promise<string[]> {
  const fg = await glob();
  const found = await fg('**/*.jsonl', { cwd: directory, onlyFiles: true, ignore: IGNORE });
  return found.sort().map((relative) => join(directory, relative));
}

/** Where pi, OpenClaw and Claude Code keep sessions on this machine, whether or not they exist. */
export async function standardLocations(env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const home = env.HOME ?? homedir();
  const openclaw = env.OPENCLAW_STATE_DIR || join(home, '.openclaw');
  const fg = await glob();
  const agents = await fg('agents/*/sessions', { cwd: openclaw, onlyDirectories: true }).catch(() => []);
  return [
    ...(agents.length > 0 ? agents.sort().map((dir) => join(openclaw, dir)) : [join(openclaw, 'agents', '*', 'sessions')]),
    join(home, '.pi', 'agent', 'sessions'),
    join(env.CLAUDE_CONFIG_DIR || join(home, '.claude'), 'projects'),
  ];
}

export async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}
