import type { Command } from 'commander';

/** Adds `restore` to the program: its arguments, options and help; the command itself is in restore.ts, loaded when it runs. */
export function addRestoreCommand(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('restore')
    .description('Put a session back as it was before an in-place write: the newest backup (<file>.bak-<time>), or the one named.')
    .argument('<file>', 'the session file (it may have been deleted: its backups bring it back)')
    .option('--list', 'list the backups, newest first (name, size, age), how many in-place writes keep, and restore nothing')
    .option('-c, --config <file>', 'project config whose "keepBackups" --list reports (default: the nearest transcript-doctor.config.json)')
    .option('--backup <name>', 'restore this backup instead of the newest: its file name or its time stamp, as --list shows them')
    .option('--force', 'restore even if a live agent holds the session\'s lock file')
    .addHelpText(
      'after',
      `
The file it replaces is kept as a backup of its own, so a restore can be undone by restoring
again; restore itself removes no backup. It writes as repair --in-place does: refused while an
agent holds the lock, through a temp file renamed over the session. In-place writes (repair,
canonicalize, scan --fix, guard, hooks) keep the newest 3 backups of a session (--keep-backups,
config "keepBackups"); --list marks those the next write will remove.

Exit codes: 0 restored (or listed), 2 no backups, unknown backup name, locked session, usage error or failed write.

Examples:
  $ transcript-doctor restore --list ~/.openclaw/agents/main/sessions/<id>.jsonl
  $ transcript-doctor restore ~/.openclaw/agents/main/sessions/<id>.jsonl     # the newest backup
  $ transcript-doctor restore --backup 2026-11-26T10-05-00-123Z session.jsonl`,
    )
    .action(async (file: string, options) => {
      setExitCode(await (await import('./restore.js')).restoreCommand(file, options));
    });
}
