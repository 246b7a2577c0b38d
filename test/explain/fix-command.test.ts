import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { fixCommand } from '../../src/explain/result.js';

describe('fixCommand', () => {
  it('leaves a plain path as it is', () => {
    expect(fixCommand('/home/ada/.openclaw/agents/main/sessions/4f1c-9a.jsonl')).toBe('transcript-doctor repair --in-place /home/ada/.openclaw/agents/main/sessions/4f1c-9a.jsonl');
  });

  it('never lets a relative path read as an option', () => {
    expect(fixCommand('-rf.jsonl')).toBe('transcript-doctor repair --in-place ./-rf.jsonl');
  });

  it.each(['/home/ada/my sessions/a b.jsonl', "/tmp/it's here.jsonl", '/tmp/$(rm -rf ~).jsonl', '/tmp/`id`;echo.jsonl', '/tmp/"q"\\n.jsonl'])(
    'quotes %s so a POSIX shell reads back the same path',
    (path) => {
      const command = fixCommand(path);
      const quoted = command.slice('transcript-doctor repair --in-place '.length);
      const echoed = spawnSync('sh', ['-c', `printf '%s' ${quoted}`], { encoding: 'utf8' });
      expect(echoed.stdout).toBe(path);
    },
  );
});
