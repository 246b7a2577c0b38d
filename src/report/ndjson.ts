import { verdictRecord, type Reporter } from './types.js';

/**
 * One compact JSON object a line, for `jq` and log pipelines: a line per finding and per judged
 * answer. No summary line, so every line has the same shape and can be streamed or concatenated.
 */
export const ndjsonReporter: Reporter = (reports) => {
  const lines: string[] = [];
  for (const { path, format, findings, verdicts } of reports) {
    for (const finding of findings) {
      const { rule, severity, line, pointer, message, providerError, healedBy } = finding;
      // JSON.stringify leaves providerError and healedBy out when they are undefined.
      lines.push(JSON.stringify({ path, format, rule, severity, line, pointer, message, providerError, healedBy }));
    }
    for (const v of verdicts ?? []) {
      if (v.verdict === 'SKIPPED') continue;
      lines.push(JSON.stringify({ path, format, kind: 'verdict', ...verdictRecord(v) }));
    }
  }
  return lines.map((line) => `${line}\n`).join('');
};
