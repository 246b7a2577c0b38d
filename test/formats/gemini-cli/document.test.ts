import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanFile } from '../../../src/pipeline/scan.js';
import type { RepairMode } from '../../../src/repair/plan.js';
import { repairBytes } from '../../helpers/repair-tester.js';

const DIR = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'gemini-cli');
const LEGACY = 'session-2026-03-09T14-00-3f9c2a71.json';
const CHECKPOINT = 'checkpoint-before-refactor.json';
const MODES: RepairMode[] = ['discard', 'synthetic'];

async function scanText(text: string, name: string) {
  const file = join(mkdtempSync(join(tmpdir(), 'td-gemini-doc-')), name);
  writeFileSync(file, text);
  return (await scanFile(file)).findings.map((f) => `${f.line} ${f.rule} ${f.pointer ?? ''}`.trim());
}

async function repair(text: string, name: string, mode: RepairMode): Promise<string> {
  return (await repairBytes(text, mode, name)).output.toString('utf8');
}

describe('Gemini CLI files that are one JSON document', () => {
  it('reads a legacy session record and a checkpoint whole, however many lines they take, and points into them', async () => {
    expect(await scanText(readFileSync(join(DIR, LEGACY), 'utf8'), LEGACY)).toEqual(['1 kept-history-pairing /messages/1/toolCalls/1']);
    expect(await scanText(readFileSync(join(DIR, CHECKPOINT), 'utf8'), CHECKPOINT)).toEqual(['1 kept-history-pairing /history/1/parts/1']);
  });

  it('needs no final line ending in a document, and reports one that does not parse as one finding', async () => {
    const text = readFileSync(join(DIR, LEGACY), 'utf8');
    expect(text.endsWith('}')).toBe(true);
    expect(await scanText(text.slice(0, 200), LEGACY)).toEqual(['1 invalid-json']);
  });

  it('repairs a legacy record by span: the unanswered call goes (discard) or gets the cancelled result (synthetic), nothing else changes', async () => {
    const text = readFileSync(join(DIR, LEGACY), 'utf8');
    const call = text.slice(text.lastIndexOf(',\n        {\n          "id": "read_file'), text.indexOf('\n      ]\n    },\n    {\n      "id": "4f1a9e63'));
    expect(await repair(text, LEGACY, 'discard')).toBe(text.replace(call, ''));
    const synthetic = await repair(text, LEGACY, 'synthetic');
    expect(synthetic).toBe(
      text.replace(
        '"status": "executing",\n          "timestamp": "2026-03-09T14:00:02.600Z"',
        '"status": "cancelled",\n          "timestamp": "2026-03-09T14:00:02.600Z","result":[{"functionResponse":{"id":"read_file__read_file_1773064800305_1","name":"read_file","response":{"error":"[Operation Cancelled] The session ended before the tool finished; result written by transcript-doctor."}}}]',
      ),
    );
  });

  it('repairs a checkpoint in both modes, and a second repair changes nothing', async () => {
    const text = readFileSync(join(DIR, CHECKPOINT), 'utf8');
    for (const mode of MODES) {
      const once = await repair(text, CHECKPOINT, mode);
      expect(await scanText(once, CHECKPOINT), mode).toEqual([]);
      expect(await repair(once, CHECKPOINT, mode), mode).toBe(once);
      const history = JSON.parse(once).history;
      expect(history.map((content: { role: string; parts: unknown[] }) => `${content.role}:${content.parts.length}`), mode).toEqual(mode === 'discard' ? ['user:1', 'model:1', 'user:1', 'user:1', 'model:1'] : ['user:1', 'model:2', 'user:2', 'user:1', 'model:1']);
    }
  });

  it('leaves a document that does not parse as it is', async () => {
    const text = readFileSync(join(DIR, LEGACY), 'utf8').slice(0, 200);
    expect(await repair(text, LEGACY, 'discard')).toBe(text);
  });
});
