import { describe, expect, it } from 'vitest';
import { compact } from '../slim/compaction/compact.js';
import { claudeCodeSession } from '../slim/compaction/sessions.js';
import { scanText } from '../helpers/scan-text.js';

describe('the branch a Claude Code compaction leaves before its boundary', () => {
  it('is judged with the parallel results that hang beside it, as it was replayed: no result is missing', async () => {
    const original = claudeCodeSession(4);
    // The session as written pairs every call, the side results included.
    expect((await scanText(original)).filter((finding) => finding.rule === 'missing-tool-result')).toEqual([]);
    const { text, after } = await compact(original, 12);
    // The chain starts again at the boundary: the turns before it are an abandoned branch now.
    expect(after.paths.some((path) => path.scope === 'abandoned')).toBe(true);
    const findings = await scanText(text);
    expect(findings.filter((finding) => finding.rule === 'missing-tool-result' || finding.rule === 'orphan-tool-result')).toEqual([]);
  });
});
