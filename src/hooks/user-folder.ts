import { UserError } from '../errors.js';
import type { AgentFolder } from '../io/sessions/home.js';

/**
 * The agent's own folder for a user-scope install, where the agent itself finds it (its
 * SessionAgent.home). A variable naming a relative folder (`~/x` for an agent that does not expand
 * `~`) is refused: the agent reads it from whatever folder it starts in, so no one file is the right one.
 */
export function userFolder(folder: AgentFolder, title: string): string {
  if (folder.relative && folder.from !== undefined) {
    const { name: variable, value, tilde } = folder.from;
    const why = value.startsWith('~') && !tilde ? `${title} does not expand ~, so it` : `${title}`;
    throw new UserError(`${variable}=${JSON.stringify(value)} is a relative path: ${why} reads it from the folder it starts in; set ${variable} to an absolute path — nothing was changed`);
  }
  return folder.path;
}
