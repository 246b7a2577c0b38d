import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { call, Session, text } from '../helpers/session.js';
import { FakeHome } from './fake-home.js';

// `explain --fix` on a size error is `slim --in-place` on the session it found, with the provider
// (and target) the printed command names: same lock check, backup and atomic write.

let home: FakeHome;
let file: string;
let before: string;

/** Two screenshots a tool returned, the older one over Anthropic's 5 MB of base64, then more work. */
function screenshots(): string {
  const header = Buffer.alloc(33);
  Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').copy(header, 0);
  header.writeUInt32BE(1600, 16);
  header.writeUInt32BE(1000, 20);
  header.set([8, 6, 0, 0, 0], 24);
  const image = (length: number) => ({ type: 'image', data: header.toString('base64') + 'A'.repeat(length - 44), mimeType: 'image/png' });
  const session = new Session().user('check the page');
  session.calls(call('call_shot_1', 'screenshot', { url: 'http://127.0.0.1:3000/' })).result('call_shot_1', 'screenshot', { message: { content: [image(6_521_204)] } });
  for (let k = 0; k < 3; k++) session.reply(`Step ${k} done.`).user(`step ${k + 1}`).calls(call(`call_read_${k}`)).result(`call_read_${k}`, 'read', { message: { content: [text(`notes ${k}`)] } });
  return session.reply('All done.').user('and the header?').jsonl();
}

const backups = (of: string) => readdirSync(dirname(of)).filter((name) => name.startsWith(`${basename(of)}.bak`));
const error = 'messages.2.content.0.tool_result.content.0.image.source.base64: image exceeds 5 MB maximum: 6521204 bytes > 5242880 bytes';

beforeEach(() => {
  home = new FakeHome();
  home.fill(6);
  file = home.write(home.pi, 'shots.jsonl', screenshots());
  before = readFileSync(file, 'utf8');
});
afterEach(() => rmSync(home.home, { recursive: true, force: true }));

describe('explain --fix on a size error', () => {
  it('slims the session it found in place, keeps a backup, and says what went', async () => {
    const result = await runCli(['explain', error, '--fix'], { env: home.env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/ {2}done {5}slimmed \(backup: .*\)\n/);
    expect(result.stdout).toMatch(/after .* — fits/);
    const after = readFileSync(file, 'utf8');
    expect(after.length).toBeLessThan(before.length - 6_000_000);
    expect(backups(file)).toHaveLength(1);
    expect(readFileSync(`${dirname(file)}/${backups(file)[0]}`, 'utf8')).toBe(before);
    // Every user message stays.
    for (const prompt of ['check the page', 'step 1', 'step 3', 'and the header?']) expect(after).toContain(prompt);
  });

  it('the same error once slimmed matches no session (exit 1), and the file is left alone', async () => {
    expect((await runCli(['explain', error, '--fix'], { env: home.env })).code).toBe(0);
    const slimmed = readFileSync(file, 'utf8');
    const again = await runCli(['explain', error, '--fix', '-r', 'json'], { env: home.env });
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout).session).toBeUndefined();
    expect(readFileSync(file, 'utf8')).toBe(slimmed);
  });

  it('json: what slim did, before and after', async () => {
    const result = await runCli(['explain', error, '--fix', '-r', 'json'], { env: home.env });
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as { session: { path: string }; fixed: { changed: boolean; slim: { fits: boolean; before: { bytes: number }; after: { bytes: number }; strategies: Array<{ strategy: string }> } } };
    expect(out.session.path).toBe(file);
    expect(out.fixed.changed).toBe(true);
    expect(out.fixed.slim.fits).toBe(true);
    expect(out.fixed.slim.after.bytes).toBeLessThan(out.fixed.slim.before.bytes);
    expect(out.fixed.slim.strategies.map((item) => item.strategy)).toContain('images-over-limit');
  });
});
