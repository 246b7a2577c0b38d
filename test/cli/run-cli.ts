import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'transcript-doctor.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI as a user would, with an optional standard input and environment; `bin` runs another copy of it. */
export function runCli(args: string[], options: { input?: string | Buffer; env?: NodeJS.ProcessEnv; cwd?: string; bin?: string } = {}): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: '1' };
  for (const name of ['NO_COLOR', 'FORCE_COLOR', 'OPENCLAW_STATE_DIR']) delete env[name];
  Object.assign(env, options.env);
  return runNode([options.bin ?? BIN, ...args], { cwd: options.cwd ?? ROOT, env, input: options.input });
}

/** Runs `node` with these arguments and collects what it prints. */
export function runNode(args: string[], options: { input?: string | Buffer; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: options.cwd, env: options.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
