export { scanFile, scanSource } from './pipeline/scan.js';
export { loadTranscript } from './pipeline/load-transcript.js';
export { analyze } from './model/analysis.js';
export { rules, findRule } from './rules/index.js';
export type { Finding, FileReport } from './pipeline/finding.js';
export type { Rule, RuleMeta, Severity } from './rules/rule.js';
