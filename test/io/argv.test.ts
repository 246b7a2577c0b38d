import { describe, expect, it } from 'vitest';
import { argvWithBytes } from '../../src/io/argv.js';

const cmdline = (...args: Array<string | Buffer>) => () => Buffer.concat(args.flatMap((arg) => [Buffer.from(arg), Buffer.of(0)]));

describe('argvWithBytes', () => {
  it('takes an argument Node decoded with U+FFFD from the raw command line, after node options', () => {
    const raw = cmdline('node', '--max-old-space-size=100', '/bin/td.js', 'scan', Buffer.from('caf\xe9.jsonl', 'latin1'), 'ok.jsonl');
    expect(argvWithBytes(['node', '/bin/td.js', 'scan', 'caf\uFFFD.jsonl', 'ok.jsonl'], raw)).toEqual(['node', '/bin/td.js', 'scan', 'caf\uDCE9.jsonl', 'ok.jsonl']);
  });

  it('keeps a real U+FFFD, and the arguments as given when the raw line does not match them', () => {
    expect(argvWithBytes(['node', 'td', 'a\uFFFD'], cmdline('node', 'td', 'a\uFFFD'))).toEqual(['node', 'td', 'a\uFFFD']);
    expect(argvWithBytes(['node', 'td', 'caf\uFFFD'], cmdline('node', 'td', 'other'))).toEqual(['node', 'td', 'caf\uFFFD']);
    const unreadable = () => {
      throw new Error('no /proc');
    };
    expect(argvWithBytes(['node', 'td', 'caf\uFFFD'], unreadable)).toEqual(['node', 'td', 'caf\uFFFD']);
  });
});
