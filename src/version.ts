import { readFileSync } from 'node:fs';

/**
 * The tool's version, as package.json writes it: the one place it is written. `--version`, the
 * JSON report's `tool.version` and the SARIF driver read it here (package.json sits one level
 * above both src/ and dist/; the bundle rebases the URL).
 */
export const version: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
