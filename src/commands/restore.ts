import { UserError } from '../errors.js';
import { backupListText } from '../report/backup-list.js';
import { terminalText } from '../report/terminal-text.js';
import { backupsOf, chooseBackup, restoreBackup, restoreTarget } from '../run/restore.js';

export interface RestoreCommandOptions {
  list?: boolean;
  backup?: string;
  force?: boolean;
}

/** `transcript-doctor restore`: returns the exit code. */
export async function restoreCommand(argument: string, options: RestoreCommandOptions): Promise<number> {
  const wanted = options.backup;
  if (options.list && wanted !== undefined) throw new UserError('--list shows the backups and restores nothing; drop --backup');
  const target = await restoreTarget(argument);
  const backups = await backupsOf(target);
  if (options.list) {
    process.stdout.write(backupListText(backups, new Date()));
    return 0;
  }
  const chosen = chooseBackup(backups, wanted);
  const { backupPath } = await restoreBackup(target, chosen, { force: options.force });
  const kept = backupPath === undefined ? ' (the file was missing)' : `; the file it replaced is kept as ${backupPath}`;
  process.stdout.write(`${terminalText(`restored ${target.path} from ${chosen.name}${kept}`)}\n`);
  return 0;
}
