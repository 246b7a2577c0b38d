// The environment every client runs in offline: a private HOME and nothing inherited that could
// point elsewhere. Shared by scripts/resume/client-homes.mjs, scripts/resume/clients.mjs and
// test/interop/copilot-resume.ts.
import { join } from 'node:path';

/** PATH, a HOME of its own (and a TMPDIR in it), a plain locale and terminal, no colour. */
export function baseEnv(home) {
  return {
    PATH: process.env.PATH,
    HOME: home,
    USER: 'user',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    TMPDIR: join(home, 'tmp'),
  };
}
