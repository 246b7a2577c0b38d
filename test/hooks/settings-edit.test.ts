import { describe, expect, it } from 'vitest';
import { settingsAgent, settingsAgents, type SettingsAgent } from '../../src/hooks/agents.js';
import { hookShellCommand, ourEvent } from '../../src/hooks/command.js';
import { parseJsonc } from '../../src/hooks/jsonc.js';
import { NEW_FILE, withHooks, withoutHooks } from '../../src/hooks/settings-edit.js';
import { UserError } from '../../src/errors.js';

const PATH = '/home/u/.agent/settings.json';
const agent = (name: string): SettingsAgent => settingsAgent(name)!;
/** The agent's hook shape read with comments and trailing commas, to hold the span edits to every layout. */
const jsonc = (a: SettingsAgent): SettingsAgent => ({ ...a, syntax: { reader: 'a JSONC reader', comments: true, trailingCommas: true, duplicateKeys: 'last' } });
const plain = (text: string): Record<string, unknown> => JSON.parse(JSON.stringify(evaluate(text))) as Record<string, unknown>;

/** A JSONC text's value, through our own parser's spans (comments and trailing commas allowed). */
function evaluate(text: string): unknown {
  const strip = text.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '').replace(/,(\s*[}\]])/g, '$1');
  parseJsonc(text, PATH, jsonc(agent('claude-code')).syntax);
  return JSON.parse(strip);
}

/** Every command of the agent's hooks, per event name, in file order. */
function commands(text: string, a: SettingsAgent): Record<string, string[]> {
  const hooks = (plain(text).hooks ?? {}) as Record<string, Record<string, unknown>[]>;
  return Object.fromEntries(
    Object.entries(hooks).map(([event, list]) => [
      event,
      list.flatMap((entry) => (a.grouped ? (entry.hooks as Record<string, string>[]) : [entry as Record<string, string>]).map((handler) => handler[a.commandKey]!)),
    ]),
  );
}

// Settings files as users have them: what the agent wrote, hand edits, comments (Gemini CLI
// strips them), trailing commas, other indentation, one line.
const CLAUDE_FILES: Record<string, string> = {
  'an empty object': '{}\n',
  'an empty object, no newline': '{}',
  'other settings': '{\n  "model": "opus",\n  "permissions": {\n    "allow": ["Bash(ls:*)"]\n  }\n}\n',
  'the user\'s own hooks on our events': `{
  "hooks": {
    "SessionEnd": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "echo bye >> ~/log"
          }
        ]
      }
    ],
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [{ "type": "command", "command": "check.sh" }]
      }
    ]
  },
  "theme": "dark"
}
`,
  'an empty hooks object': '{\n  "hooks": {}\n}\n',
  'comments and trailing commas': '{\n  // mine\n  "hooks": {\n    "SessionStart": [\n      {"hooks": [{"type": "command", "command": "hello"}]},\n    ],\n  },\n  /* end */\n}\n',
  'four-space indentation': '{\n    "env": {\n        "A": "1"\n    },\n    "hooks": {\n        "SessionStart": []\n    }\n}\n',
  'tabs': '{\n\t"env": {\n\t\t"A": "1"\n\t}\n}\n',
  'one line': '{"hooks":{"SessionEnd":[{"hooks":[{"type":"command","command":"x"}]}]},"model":"opus"}',
  'CRLF': '{\r\n  "model": "opus"\r\n}\r\n',
};

describe('withHooks / withoutHooks', () => {
  for (const [name, before] of Object.entries(CLAUDE_FILES)) {
    it(`install then uninstall gives back ${name} byte for byte`, () => {
      const a = jsonc(agent('claude-code'));
      const { text: installed, created } = withHooks(before, a, PATH);
      expect(installed).not.toBe(before);
      expect(withHooks(installed, a, PATH)).toEqual({ text: installed, created: new Set() });
      expect(withoutHooks(installed, a, PATH, created)).toBe(before);
    });
  }

  it("keeps the user's hooks first and in order, and adds ours after them", () => {
    const a = agent('claude-code');
    const installed = withHooks(CLAUDE_FILES["the user's own hooks on our events"]!, a, PATH).text;
    const found = commands(installed, a);
    expect(found.SessionEnd).toEqual(['echo bye >> ~/log', hookShellCommand('session-end', 'claude-code')]);
    expect(found.PreToolUse).toEqual(['check.sh']);
    expect(found.SessionStart).toEqual([hookShellCommand('session-start', 'claude-code')]);
    expect(Object.keys(plain(installed))).toEqual(['hooks', 'theme']);
    const start = (plain(installed).hooks as Record<string, Record<string, unknown>[]>).SessionStart![0]!;
    expect(start.matcher).toBe('resume');
  });

  it('creates a new file as the agents write theirs: two-space JSON', () => {
    const { text: installed, created } = withHooks(NEW_FILE, agent('claude-code'), PATH);
    expect(installed).toBe(
      `${JSON.stringify(
        {
          hooks: {
            SessionStart: [{ matcher: 'resume', hooks: [{ type: 'command', command: hookShellCommand('session-start', 'claude-code') }] }],
            SessionEnd: [{ hooks: [{ type: 'command', command: hookShellCommand('session-end', 'claude-code') }] }],
          },
        },
        null,
        2,
      )}\n`,
    );
    expect(withoutHooks(installed, agent('claude-code'), PATH, new Set([...created, 'file']))).toBeUndefined();
    // Without the record of what install made, only the hooks go: a user's `{"hooks": {}}` looks the same.
    expect(withoutHooks(installed, agent('claude-code'), PATH, new Set())).toBe('{\n  "hooks": {\n    "SessionStart": [],\n    "SessionEnd": []\n  }\n}\n');
    expect(withoutHooks(installed, agent('claude-code'), PATH, created)).toBe('{}\n');
  });

  it('follows the file: CRLF stays CRLF, four spaces stay four spaces, a one-line list stays on one line', () => {
    const crlf = withHooks(CLAUDE_FILES['CRLF']!, agent('claude-code'), PATH).text;
    expect(crlf.replaceAll('\r\n', '')).not.toContain('\n');
    expect(crlf.startsWith('{\r\n  "model": "opus",\r\n  "hooks": {\r\n    "SessionStart": [\r\n')).toBe(true);
    const a = agent('claude-code');
    const four = withHooks(CLAUDE_FILES['four-space indentation']!, a, PATH).text;
    expect(four).toContain('\n        "SessionStart": [\n            {\n                "matcher": "resume",');
    const inline = withHooks(CLAUDE_FILES['one line']!, a, PATH).text;
    expect(inline.startsWith('{"hooks":{"SessionEnd":[{"hooks":[{"type":"command","command":"x"}]}, {')).toBe(true);
  });

  it('updates an older command of ours in place (a node that moved)', () => {
    const a = agent('claude-code');
    const old = '{\n  "hooks": {\n    "SessionEnd": [\n      {\n        "hooks": [\n          {\n            "type": "command",\n            "command": "/old/bin/node \'/old/lib/node_modules/transcript-doctor/bin/transcript-doctor.js\' hook session-end --agent claude-code",\n            "timeout": 30\n          }\n        ]\n      }\n    ]\n  }\n}\n';
    const { text: installed, created } = withHooks(old, a, PATH);
    expect(commands(installed, a)).toEqual({ SessionEnd: [hookShellCommand('session-end', 'claude-code')], SessionStart: [hookShellCommand('session-start', 'claude-code')] });
    expect(installed).toContain('"timeout": 30');
    expect(created).toEqual(new Set(['hooks.SessionStart']));
    expect(withoutHooks(installed, a, PATH, created)).toBe('{\n  "hooks": {\n    "SessionEnd": []\n  }\n}\n');
  });

  it("takes out only our handler from a group the user put it in, and leaves the user's empty lists of other events", () => {
    const a = agent('claude-code');
    const mixed = `{\n  "hooks": {\n    "SessionEnd": [\n      {\n        "hooks": [\n          { "type": "command", "command": "mine.sh" },\n          { "type": "command", "command": "'/opt/node' '/opt/td/bin/transcript-doctor.js' hook session-end --agent claude-code" }\n        ]\n      }\n    ],\n    "Stop": []\n  }\n}\n`;
    const removed = withoutHooks(mixed, a, PATH, new Set(['hooks.SessionStart']))!;
    expect(commands(removed, a)).toEqual({ SessionEnd: ['mine.sh'], Stop: [] });
  });

  it('changes nothing when there is nothing of ours to take out', () => {
    for (const before of Object.values(CLAUDE_FILES)) expect(withoutHooks(before, jsonc(agent('claude-code')), PATH, new Set(['file', 'hooks']))).toBe(before);
  });

  for (const a of settingsAgents()) {
    it(`${a.name}: a new file round-trips, in the agent's own hook shape`, () => {
      const { text: installed, created } = withHooks(NEW_FILE, a, PATH);
      const value = plain(installed);
      expect(Object.keys(value)).toEqual([...Object.keys(a.skeleton), 'hooks']);
      expect(commands(installed, a)).toEqual({
        [a.events['session-start']]: [hookShellCommand('session-start', a.name)],
        [a.events['session-end']]: [hookShellCommand('session-end', a.name)],
      });
      expect(withHooks(installed, a, PATH).text).toBe(installed);
      expect(withoutHooks(installed, a, PATH, new Set([...created, 'file']))).toBeUndefined();
    });
  }

  it('copilot: a file of its own, version 1, handlers with a bash command', () => {
    const value = plain(withHooks(NEW_FILE, agent('copilot-cli'), PATH).text) as { version: number; hooks: Record<string, unknown[]> };
    expect(value.version).toBe(1);
    expect(value.hooks.sessionEnd).toEqual([{ type: 'command', bash: hookShellCommand('session-end', 'copilot-cli') }]);
  });

  it('refuses a file that is not JSON, or whose hooks are not an object, in one line', () => {
    const a = agent('claude-code');
    expect(() => withHooks('{\n  "model": "opus",\n  oops\n}\n', a, PATH)).toThrow(UserError);
    expect(() => withHooks('{\n  "model": "opus",\n  oops\n}\n', a, PATH)).toThrow(`${PATH} is not valid JSON (line 3, column 3: expected a quoted key or }); fix it or move it away — nothing was changed`);
    expect(() => withHooks('{"hooks": []}', a, PATH)).toThrow(`${PATH}: "hooks" is not an object; fix it by hand — nothing was changed`);
    expect(() => withHooks('{"hooks": {"SessionEnd": {}}}', a, PATH)).toThrow('hooks.SessionEnd is not a list');
    expect(() => withHooks('[]', a, PATH)).toThrow('does not hold a JSON object');
    expect(() => withHooks('{} {}', a, PATH)).toThrow('text after the end of the document');
    expect(() => withHooks('{"a": "unterminated}', a, PATH)).toThrow('an unterminated or invalid string');
  });
});

describe('ourEvent', () => {
  it('knows exactly the command install writes, wherever node and the package are', () => {
    expect(ourEvent(hookShellCommand('session-start', 'codex'), 'codex')).toBe('session-start');
    expect(ourEvent("'/a b/node' '/a b/it'\\''s/bin/transcript-doctor.js' hook session-end --agent codex", 'codex')).toBe('session-end');
    expect(ourEvent(hookShellCommand('session-start', 'codex'), 'claude-code')).toBeUndefined();
    expect(ourEvent('transcript-doctor hook session-end --agent codex', 'codex')).toBeUndefined();
    expect(ourEvent('npx transcript-doctor hook session-end', 'codex')).toBeUndefined();
    expect(ourEvent(`${hookShellCommand('session-end', 'codex')} >> ~/log`, 'codex')).toBeUndefined();
    expect(ourEvent('transcript-doctor repair --in-place x', 'codex')).toBeUndefined();
    expect(ourEvent(42, 'codex')).toBeUndefined();
  });

  it('names this node and this package by absolute path', () => {
    const command = hookShellCommand('session-end', 'gemini-cli');
    expect(command.startsWith(process.execPath)).toBe(true);
    expect(command).toMatch(/\/bin\/transcript-doctor\.js hook session-end --agent gemini-cli$/);
  });
});
