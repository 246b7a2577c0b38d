import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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

/**
 * What zsh offers for each command line: an interactive zsh on a pseudo-terminal (zsh/zpty), with
 * compinit and the script loaded, TAB bound to a widget that completes the line and records the
 * words compadd is given. The widget writes each line's mark itself, so no waiting is guessed.
 */
export function zshCandidates(file: string, lines: readonly string[], cwd?: string): string[][] {
  const folder = mkdtempSync(join(tmpdir(), 'td-zsh-'));
  const out = join(folder, 'offered');
  const setup = [
    "PS1='zle-ready> '",
    `autoload -U compinit && compinit -u -d ${folder}/zcompdump`,
    `source ${file}`,
    `compadd() { builtin compadd -O __td_words "$@"; print -rl -- $__td_words >> ${out}; builtin compadd "$@" }`,
    `__td_tab() { print -r -- "=== $BUFFER" >> ${out}; zle complete-word }`,
    'zle -N __td_tab',
    "bindkey '^I' __td_tab",
    "print 4''2READY",
  ].join('; ');
  const typed = lines.map((line) => `${line}\t\x15`).join('');
  const driver = [
    'zmodload zsh/zpty',
    'zpty z zsh -f -i',
    `zpty -w z ${singleQuotedZsh(setup)}`,
    "zpty -r z line '*42READY*'",
    // zle drops what was typed before it starts: type once it has drawn its prompt.
    "zpty -r z line '*zle-ready> *'",
    `zpty -w -n z ${singleQuotedZsh(typed)}`,
    `zpty -w z ${singleQuotedZsh("print 4''3DONE")}`,
    "zpty -r z line '*43DONE*'",
    'zpty -d z',
  ].join('\n');
  const run = spawnSync('zsh', ['-f', '-c', driver], { encoding: 'utf8', cwd, timeout: 100_000 });
  if (run.status !== 0) throw new Error(`zsh exited ${run.status}: ${run.stderr}`);
  const sections = readFileSync(out, 'utf8').split(/^=== .*\n/m).slice(1);
  return sections.map((section) => [...new Set(section.split('\n').filter((word) => word !== ''))]);
}

function singleQuotedZsh(text: string): string {
  return `$'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\t', '\\t').replaceAll('\x15', '\\x15')}'`;
}
