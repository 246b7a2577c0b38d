import { SessionManager } from '@mariozechner/pi-coding-agent';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path'; import { tmpdir } from 'node:os';
const d = mkdtempSync(join(tmpdir(), 'x-')); const f = join(d, 's.jsonl'); copyFileSync(process.argv[2], f);
const sm = SessionManager.open(f, d); const c = sm.buildSessionContext();
console.log(c.messages.length, c.messages.map(m => m.role[0]).join(''));
