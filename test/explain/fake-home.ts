import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../cli/run-cli.js';
import { call, Session } from '../helpers/session.js';

/** A tool call id shaped like Anthropic's, the same for the same seed. */
export function toolId(seed: string): string {
  return `toolu_01${createHash('sha256').update(seed).digest('base64').replace(/[^A-Za-z0-9]/g, '').slice(0, 22)}`;
}

/** A healthy session: a few rounds of calls, each answered. */
export function healthy(seed: string, rounds = 4): Session {
  const session = new Session().user('please tidy the notes');
  for (let round = 0; round < rounds; round++) {
    const id = toolId(`${seed}/${round}`);
    session.calls(call(id)).result(id).reply(`Round ${round} done.`).user('next one');
  }
  return session.reply('All tidy.');
}

export interface Planted {
  file: string;
  /** 1-based line of the finding explain should report. */
  line: number;
  id: string;
}

/**
 * A home folder with the agents' standard session folders filled with healthy sessions (modified
 * over the last days, oldest first) and the env that points the CLI at it.
 */
export class FakeHome {
  readonly home = mkdtempSync(join(tmpdir(), 'td-explain-home-'));
  readonly openclaw = join(this.home, '.openclaw', 'agents', 'main', 'sessions');
  readonly pi = join(this.home, '.pi', 'agent', 'sessions', '--workspace-demo--');
  readonly claude = join(this.home, '.claude', 'projects', '-workspace-demo');
  readonly env: NodeJS.ProcessEnv = {
    HOME: this.home,
    CLAUDE_CONFIG_DIR: join(this.home, '.claude'),
    CODEX_HOME: join(this.home, '.codex'),
    OPENCLAW_TOOL_GUARD_ABORT_MODE: '',
  };
  private clock = Date.UTC(2026, 10, 1) / 1000;

  constructor() {
    for (const dir of [this.openclaw, this.pi, this.claude]) mkdirSync(dir, { recursive: true });
  }

  /** Writes a session; each file written is newer than the one before. */
  write(dir: string, name: string, body: string): string {
    const file = join(dir, name);
    writeFileSync(file, body);
    this.clock += 60;
    utimesSync(file, this.clock, this.clock);
    return file;
  }

  /** Healthy sessions spread over the three folders. */
  fill(count: number, prefix = 'healthy'): void {
    const dirs = [this.openclaw, this.pi];
    for (let i = 0; i < count; i++) {
      const name = `${String(i).padStart(4, '0')}-${prefix}.jsonl`;
      this.write(dirs[i % dirs.length]!, name, healthy(`${prefix}/${i}`, 2 + (i % 4)).jsonl());
    }
  }

  /** A Claude Code session from the fixtures. */
  copyFixture(name: string): string {
    const file = join(this.claude, name);
    copyFileSync(join(ROOT, 'fixtures', 'claude-code', name), file);
    this.clock += 60;
    utimesSync(file, this.clock, this.clock);
    return file;
  }
}
