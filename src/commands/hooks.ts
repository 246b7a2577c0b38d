import type { Scope } from '../hooks/agents.js';
import { planHooks, type HooksAction } from '../hooks/install.js';
import { forgetCreated, rememberCreated } from '../hooks/install-record.js';
import { writeSettings } from '../hooks/settings-file.js';
import { terminalText } from '../report/terminal-text.js';
import { unifiedDiff } from '../report/unified-diff.js';

export interface HooksOptions {
  dryRun?: boolean;
  scope: Scope;
}

/** `transcript-doctor hooks install|uninstall <agent>`: returns the exit code. */
export async function hooksCommand(action: HooksAction, agent: string, options: HooksOptions): Promise<number> {
  const change = await planHooks(action, agent, options.scope, process.cwd());
  const before = change.read.text;
  if (change.after === before) {
    process.stdout.write(`${terminalText(change.unchanged)}\n`);
    return 0;
  }
  if (options.dryRun) {
    const name = terminalText(change.path);
    process.stdout.write(unifiedDiff(before ?? '', change.after ?? '', before === undefined ? '/dev/null' : name, change.after === undefined ? '/dev/null' : name));
    return 0;
  }
  const { backupPath } = await writeSettings(change.path, change.read, change.after);
  if (change.record === 'forget') await forgetCreated(change.path);
  else if (change.record !== undefined) await rememberCreated(change.path, change.record.created);
  process.stdout.write(`${terminalText(change.done)}${backupPath === undefined ? '' : ` (backup: ${terminalText(backupPath)})`}\n`);
  return 0;
}
