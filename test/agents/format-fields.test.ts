import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/run-cli.js';

/**
 * Nothing outside src/formats knows a transcript's field names (ARCHITECTURE, "Agents at the
 * edges"): the session search, the hooks, the run layer and the commands ask a format
 * (sessionHead, messageShape, the decoders' neutral entries) instead of reading a line's members.
 * The names are the decoders' own: every quoted member or record type of two or more words in a
 * src/formats/<format>/decode.ts, and the link and id members they read by property, listed here
 * and checked to be in src/formats. Comments count too: a comment that names a field is where the
 * next regex over it starts.
 */

const GUARDED = ['src/io', 'src/hooks', 'src/run', 'src/commands'];

/** Members the decoders read as properties (`value.parentUuid`), not as quoted names. */
const READ_BY_PROPERTY = [
  'sessionId', 'parentUuid', 'logicalParentUuid', 'parentId', 'toolCallId', 'toolUseId', 'tool_use_id', 'tool_call_id', 'call_id',
  'parentToolCallId', 'isSidechain', 'uuid', 'payload', 'agentId', 'encrypted_content', 'thinkingSignature', 'usageMetadata',
  'replacement_history', 'stop_reason', 'stopReason', 'toolRequests', 'functionCall', 'functionResponse',
];
/** Names that are also plain words of this program (`cwd` is every command's working folder): only their quoted spelling, a member read by name, counts. */
const QUOTED_ONLY = ['cwd'];

const filesUnder = (folder: string): string[] =>
  readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(folder, name));

const formatFolders = readdirSync(join(ROOT, 'src/formats'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
const decoders = formatFolders.map((name) => join('src/formats', name, 'decode.ts')).filter((path) => existsSync(join(ROOT, path)));
const formatText = filesUnder('src/formats').map((path) => readFileSync(join(ROOT, path), 'utf8')).join('\n');

/** `'tool_use_id'`, `"parentUuid"`, `'session_meta'`: camelCase or snake_case names quoted in a decoder. */
function quotedInDecoders(): string[] {
  const names = new Set<string>();
  for (const path of decoders) {
    for (const match of readFileSync(join(ROOT, path), 'utf8').matchAll(/['"]([a-z]+(?:(?:[A-Z][a-z0-9]*)+|(?:_[a-z0-9]+)+))['"]/g)) names.add(match[1]!);
  }
  return [...names].sort();
}

const escape = (name: string) => name.replace(/[$]/g, '\\$&');

describe('transcript field names stay in src/formats', () => {
  const fieldNames = [...new Set([...quotedInDecoders(), ...READ_BY_PROPERTY])].sort();

  it('the list is read from the decoders and is what the formats know', () => {
    expect(decoders.length).toBeGreaterThanOrEqual(6);
    expect(fieldNames).toEqual(expect.arrayContaining(['sessionId', 'parentUuid', 'tool_use_id', 'toolCallId', 'session_meta']));
    expect([...READ_BY_PROPERTY, ...QUOTED_ONLY].filter((name) => !new RegExp(`\\b${escape(name)}\\b`).test(formatText))).toEqual([]);
  });

  it(`no file in ${GUARDED.join(', ')} names one`, () => {
    const words = new RegExp(`\\b(${fieldNames.map(escape).join('|')})\\b`);
    const quoted = new RegExp(`['"](${QUOTED_ONLY.map(escape).join('|')})['"]`);
    const found: string[] = [];
    for (const path of GUARDED.flatMap(filesUnder)) {
      readFileSync(join(ROOT, path), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          // A --help example (`  $ transcript-doctor …`) quotes a provider's error or an agent's hook input as a user types it: text, not code reading a field.
          if (/^\s*\$ /.test(line)) return;
          const hit = words.exec(line) ?? quoted.exec(line);
          if (hit !== null) found.push(`${path}:${i + 1}: ${hit[1]}`);
        });
    }
    expect(found).toEqual([]);
  });
});
