import { clipped, UserError } from '../errors.js';
import { HOOK_EVENTS, hookAgentNames, hooksOf, type Scope, type SettingsAgent } from './agents.js';
import { extensionText, isOurExtension } from './extension-file.js';
import type { HookExtension } from './hook-settings.js';
import { createdIn } from './install-record.js';
import { hooksSeen, NEW_FILE, withHooks, withoutHooks } from './settings-edit.js';
import { readSettings, type SettingsText } from './settings-file.js';

export type HooksAction = 'install' | 'uninstall';

/** One file `hooks install|uninstall` would change: its text before and after (undefined: no file). */
export interface HooksChange {
  path: string;
  read: SettingsText;
  after: string | undefined;
  /** Said when the file is written, or when there is nothing to do. */
  done: string;
  unchanged: string;
  /** Once written: what to keep in (or drop from) the install record. */
  record?: { created: ReadonlySet<string> } | 'forget';
}

/** Works out the change to one agent's hook configuration; nothing is written here. */
export async function planHooks(action: HooksAction, agentName: string, scope: Scope, cwd: string): Promise<HooksChange> {
  const found = hooksOf(agentName);
  if (found === undefined) throw new UserError(`unknown agent "${clipped(agentName)}" (choose from: ${hookAgentNames().join(', ')})`);
  const { agent: known, hooks } = found;
  if (hooks.kind === 'plugin') throw new UserError(hooks.howToInstall);
  if (hooks.kind === 'extension') return planExtension(action, known.name, hooks, scope, cwd);
  return planSettings(action, { ...hooks, name: known.name, title: known.title }, scope, cwd);
}

async function planSettings(action: HooksAction, agent: SettingsAgent, scope: Scope, cwd: string): Promise<HooksChange> {
  const path = agent.settingsPath(scope, cwd);
  const read = await readSettings(path);
  const before = read.text;
  if (action === 'install') {
    const note = agent.installNote === undefined ? '' : `; ${agent.installNote}`;
    const { text, created } = withHooks(before ?? NEW_FILE, agent, path);
    if (before === undefined) created.add('file');
    // The agent reads the file its own way: say "installed" only when it would run both hooks.
    if (hooksSeen(text, agent, path).size !== HOOK_EVENTS.length) throw new UserError(`${agent.title} would not see hooks added to ${path}; nothing was changed`);
    return {
      path,
      read,
      after: text,
      record: { created },
      done: `installed the ${agent.title} session-start and session-end hooks in ${path}${note}`,
      unchanged: `the ${agent.title} hooks are already installed in ${path}; nothing written`,
    };
  }
  const created = await createdIn(path);
  // A file install made that is now a link is the user's: its text is edited, the file kept.
  if (read.link) created.delete('file');
  const after = before === undefined ? before : withoutHooks(before, agent, path, created);
  if (after !== undefined && hooksSeen(after, agent, path).size > 0) throw new UserError(`${agent.title} would still run hooks of ours left in ${path}; remove them by hand — nothing was changed`);
  return {
    path,
    read,
    after,
    record: 'forget',
    done: after === undefined ? `removed ${path}, which held only the transcript-doctor hooks` : `removed the transcript-doctor hooks from ${path}`,
    unchanged: `no transcript-doctor hooks in ${path}; nothing written`,
  };
}

/** An agent that loads a file of ours from its extensions folder: that file is written, or removed when it is ours. */
async function planExtension(action: HooksAction, name: string, hooks: HookExtension, scope: Scope, cwd: string): Promise<HooksChange> {
  const path = hooks.path(scope, cwd);
  const read = await readSettings(path);
  const ours = read.text !== undefined && isOurExtension(read.text, name);
  if (read.text !== undefined && !ours) throw new UserError(`${path} exists and was not written by transcript-doctor; nothing was changed`);
  if (action === 'install') {
    return {
      path,
      read,
      after: extensionText(name, hooks.shipped),
      done: `installed the ${name} extension as ${path} (${hooks.loadedWhen})`,
      unchanged: `the ${name} extension is already installed as ${path}; nothing written`,
    };
  }
  return { path, read, after: undefined, done: `removed the ${name} extension ${path}`, unchanged: `no transcript-doctor ${name} extension at ${path}; nothing written` };
}
