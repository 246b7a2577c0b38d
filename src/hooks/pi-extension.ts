import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Scope } from './agents.js';
import { userFolder } from './user-folder.js';

/** The first line of the file `hooks install pi` writes: how uninstall knows the file is ours. */
const MARK = '// Installed by `transcript-doctor hooks install pi`; `transcript-doctor hooks uninstall pi` removes it.';

/** Where pi loads extensions from: `<agent dir>/extensions/` for the user, `.pi/extensions/` in a project. */
export function piExtensionPath(scope: Scope, cwd: string): string {
  return join(scope === 'user' ? userFolder('pi', 'pi') : join(cwd, '.pi'), 'extensions', 'transcript-doctor.js');
}

/**
 * The installed file: one line that loads the extension shipped in this package by absolute
 * path, so the extension finds the package's own code (pi loads it from its extensions folder,
 * where no node_modules has transcript-doctor) and updates with the package.
 */
export function piExtensionText(): string {
  const shipped = fileURLToPath(new URL('../../extensions/pi/transcript-doctor.js', import.meta.url));
  return `${MARK}\nexport { default } from ${JSON.stringify(shipped)};\n`;
}

export function isOurPiExtension(text: string): boolean {
  return text.startsWith(MARK);
}
