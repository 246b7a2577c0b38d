import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRules } from '../../src/verify/run.js';
import { loadVerifierConfig } from '../../src/verify/settings.js';

/** Files verify reads beside the transcripts are read only when regular and bounded, like every side file. */
describe('verify: rules files and the OpenClaw config', () => {
  const dir = mkdtempSync(join(tmpdir(), 'td-verify-side-'));
  const fifo = join(dir, 'rules.fifo');
  execFileSync('mkfifo', [fifo]);

  it('a FIFO or a device as --rules is refused without blocking or reading', async () => {
    await expect(readRules([fifo])).rejects.toThrow(/rules\.fifo: a FIFO, not a regular file/);
    await expect(readRules(['/dev/zero'])).rejects.toThrow(/a character device, not a regular file/);
  });

  it('a rules file over 1 MiB is refused by its size', async () => {
    const big = join(dir, 'BIG.md');
    writeFileSync(big, 'x'.repeat(1024 * 1024 + 1));
    await expect(readRules([big])).rejects.toThrow(/more than the 1 MiB/);
    await expect(readRules([join(dir, 'missing.md')])).rejects.toThrow(/missing\.md: /);
  });

  it('an OpenClaw config that is a FIFO or /dev/zero is a one-line error, not a hang', async () => {
    await expect(loadVerifierConfig(fifo)).rejects.toThrow(/cannot read config .*a FIFO/);
    await expect(loadVerifierConfig('/dev/zero')).rejects.toThrow(/cannot read config \/dev\/zero: a character device/);
  });
});
