import { UserError } from '../errors.js';
import { DEFAULT_KEEP_BACKUPS } from '../io/backups.js';
import { loadProjectConfig } from '../io/config.js';
import { rules } from '../rules/index.js';
import { backupListText } from '../report/backup-list.js';
import { terminalText } from '../report/terminal-text.js';
import { backupsOf, chooseBackup, restoreBackup, restoreTarget } from '../run/restore.js';

export interface RestoreCommandOptions {
  list?: boolean;
  backup?: string;
  force?: boolean;
  config?: string;
}

/** `transcript-doctor restore`: returns the exit code. */
export async function restoreCommand(argument: string, options: RestoreCommandOptions): Promise<number> {
  const wanted = options.backup;
  if (options.list && wanted !== undefined) throw new UserError('--list shows the backups and restores nothing; drop --backup');
  const target = await restoreTarget(argument);
  const backups = await backupsOf(target);
  if (options.list) {
    const config = loadProjectConfig(options.config, rules.map((rule) => rule.meta.id));
    const bound = config.keepBackups === undefined ? { keep: DEFAULT_KEEP_BACKUPS } : { keep: config.keepBackups, from: config.path };
    process.stdout.write(backupListText(backups, new Date(), bound));
    return 0;
  }
  const chosen = chooseBackup(backups, wanted);
  const { backupPath } = await restoreBackup(target, chosen, { force: options.force });
  const kept = backupPath === undefined ? ' (the file was missing)' : `; the file it replaced is kept as ${backupPath}`;
  process.stdout.write(`${terminalText(`restored ${target.path} from ${chosen.name}${kept}`)}\n`);
  return 0;
}
