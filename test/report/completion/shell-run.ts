import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether a shell can be run here. */
export function hasShell(shell: string): boolean {
  return spawnSync(shell, ['-c', 'exit 0']).status === 0;
}

/** The script in a temp file, for shells that check or source a file. */
export function scriptFile(script: string, name: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'td-completion-')), name);
  writeFileSync(file, script);
  return file;
}

/** `<shell> -n file`: the syntax check; returns what the shell said, '' when it is clean. */
export function syntaxErrors(shell: string, file: string): string {
  const run = spawnSync(shell, ['-n', file], { encoding: 'utf8' });
  return run.status === 0 ? '' : `${run.status}: ${run.stderr}`;
}

/**
 * What bash offers for the words typed so far (the last is the one being completed): the script
 * sourced in a bash subprocess, its function called with COMP_WORDS and COMP_CWORD set.
 */
export function bashCandidates(file: string, fn: string, words: readonly string[], cwd?: string): string[] {
  const quoted = words.map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(' ');
  const body = `source '${file}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; COMPREPLY=(); ${fn}; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const run = spawnSync('bash', ['--norc', '--noprofile', '-c', body], { encoding: 'utf8', cwd });
  if (run.status !== 0) throw new Error(`bash exited ${run.status}: ${run.stderr}`);
  return run.stdout.split('\n').filter((line) => line !== '');
}

/** What fish offers for a command line (`complete -C`), the words only. */
export function fishCandidates(file: string, line: string, cwd?: string): string[] {
  const run = spawnSync('fish', ['--no-config', '-c', `source '${file}'; complete -C '${line.replaceAll("'", "\\'")}'`], { encoding: 'utf8', cwd });
  if (run.status !== 0) throw new Error(`fish exited ${run.status}: ${run.stderr}`);
  return run.stdout.split('\n').filter((entry) => entry !== '').map((entry) => entry.split('\t')[0]!);
}
