import { semanticsOf } from '../../model/transcript.js';
import type { Rule } from '../rule.js';

export const duplicateHeader: Rule = {
  meta: {
    id: 'duplicate-header',
    severity: 'warning',
    category: 'structure',
    fix: 'safe',
    description: 'The file has more than one session header.',
    docs: `## What it does
Finds session header lines after the first one.

## Why is this bad?
Older pi versions wrote a second header when forking from an entry before the first assistant
reply (fixed in February 2026). Tools that expect exactly one header, such as OpenClaw's SQLite
import, reject or mis-read such files.

## Fix
repair drops the extra headers.`,
  },
  check({ analysis, report }) {
    if (!semanticsOf(analysis.transcript).header) return;
    const headers = analysis.entries.ofKind('header');
    for (const extra of headers.slice(1)) {
      report({ line: extra.line, message: `Second session header (the first is on line ${headers[0]!.line}).` });
    }
  },
};
