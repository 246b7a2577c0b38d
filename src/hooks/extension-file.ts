/**
 * The file `hooks install <agent>` writes into an agent's extensions folder: one line that loads
 * the extension shipped in this package by absolute path, so the extension finds the package's
 * own code (the agent loads it from its extensions folder, where no node_modules has
 * transcript-doctor) and updates with the package.
 */

/** Its first line: how uninstall knows the file is ours. */
const mark = (agent: string) => `// Installed by \`transcript-doctor hooks install ${agent}\`; \`transcript-doctor hooks uninstall ${agent}\` removes it.`;

export function extensionText(agent: string, shipped: string): string {
  return `${mark(agent)}\nexport { default } from ${JSON.stringify(shipped)};\n`;
}

export function isOurExtension(text: string, agent: string): boolean {
  return text.startsWith(mark(agent));
}
