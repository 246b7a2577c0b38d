import { UserError } from '../errors.js';
import { formatPathList } from '../io/path-list.js';
import { agentNamed } from '../io/sessions/index.js';
import { looksLikeSessionRef, MIN_PREFIX, resolveSessionRef } from '../io/sessions/resolve.js';
import { terminalText } from '../report/terminal-text.js';

export interface LocateOptions {
  /** An agent name (commander checks the choice). */
  agent?: string;
  null?: boolean;
}

/** `transcript-doctor locate`: 0 printed the session's path, 1 no session matches, 2 usage error or an ambiguous id. */
export function locateCommand(ref: string, options: LocateOptions): number {
  if (!looksLikeSessionRef(ref)) throw new UserError(`${ref} is not a session id, the start of one (${MIN_PREFIX} or more hex digits) or latest`);
  const agent = options.agent === undefined ? undefined : agentNamed(options.agent);
  const found = resolveSessionRef(ref, { agent });
  if (found.length === 0) {
    const whose = agent === undefined ? '' : ` of ${agent.name}`;
    const what = ref === 'latest' ? `no session${whose} for this folder's project` : `no session${whose} has an id starting with ${ref}`;
    process.stderr.write(`transcript-doctor: ${terminalText(what)}\n`);
    return 1;
  }
  process.stdout.write(formatPathList(found.map((session) => session.path), options.null ?? false));
  return 0;
}
