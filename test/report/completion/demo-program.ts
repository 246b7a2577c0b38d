import type { CompletedCommand } from '../../../src/report/completion/index.js';

/** A small program with one of each thing a script must handle: values, files, repeats, nesting, a command line, quotes. */
export const DEMO: CompletedCommand = {
  name: 'demo',
  description: 'A demo.',
  options: [{ flags: ['-v', '--version'], description: 'print the version', repeatable: false }],
  arguments: [],
  commands: [
    {
      name: 'check',
      description: 'Check files; and more words after the clause',
      options: [
        { flags: ['-m', '--mode'], description: 'what to do', value: { kind: 'text', values: ['keep', 'drop'] }, repeatable: false },
        { flags: ['-o', '--out'], description: 'where to write [a file]', value: { kind: 'file' }, repeatable: false },
        { flags: ['--tag'], description: "a tag, it's repeatable", value: { kind: 'text' }, repeatable: true },
        { flags: ['--cache-dir'], description: 'a folder', value: { kind: 'directory' }, repeatable: false },
        { flags: ['--fast'], description: 'go fast', repeatable: false },
      ],
      arguments: [
        { name: 'error', description: 'free text', value: { kind: 'text' }, variadic: false },
        { name: 'paths', description: 'files', value: { kind: 'file' }, variadic: true },
      ],
      commands: [],
    },
    {
      name: 'hooks',
      description: 'Hooks.',
      options: [],
      arguments: [],
      commands: [
        {
          name: 'add',
          description: "Add one (it's safe)",
          options: [{ flags: ['--dry-run'], description: 'write nothing', repeatable: false }],
          arguments: [{ name: 'agent', description: 'which', value: { kind: 'text', values: ['alpha', 'beta'] }, variadic: false }],
          commands: [],
        },
      ],
    },
    {
      name: 'run',
      description: 'Run a command.',
      options: [],
      arguments: [{ name: 'command', description: 'the command line', value: { kind: 'command' }, variadic: true }],
      commands: [],
    },
  ],
};
