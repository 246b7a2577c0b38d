import type { FileReport, Finding } from '../../pipeline/finding.js';
import { SEVERITY_RANK } from '../../pipeline/finding.js';
import { describeRepair } from '../repair-text.js';
import type { Reporter } from '../types.js';
import { summarize } from '../types.js';
import { describeVerdict } from '../verdicts-text.js';
import { CONTENT_SECURITY_POLICY, SCRIPT, STYLE } from './assets.js';
import { escapeHtml as h } from './escape.js';
import { count, plural } from './words.js';
import { findingHtml } from './finding-html.js';
import { timelineHtml, type Pins } from './timeline-html.js';

/** Finding cards drawn per file; past this a page would stop being readable, and the JSON reporter has them all. */
export const MAX_FINDINGS_SHOWN = 500;
/** Names of files without problems listed at the end. */
const MAX_CLEAN_LISTED = 1000;


/**
 * One self-contained page: per file with something to say, its replayed conversation around each
 * finding (when the scan gathered a timeline), each finding pinned at its turn with the command
 * that fixes it. Nothing is loaded from anywhere; every transcript word is escaped.
 */
export const htmlReporter: Reporter = Object.assign(
  (reports: readonly FileReport[], options: { dryRun?: boolean; verb?: 'repair' | 'canonicalize' | 'slim' }) => {
    const shown = reports.filter(hasNews);
    const clean = reports.filter((report) => !hasNews(report));
    const sections = shown.map((report, i) => fileHtml(report, i + 1, options));
    return (
      `<!doctype html>\n<html lang="en"><head><meta charset="utf-8">` +
      `<meta http-equiv="Content-Security-Policy" content="${h(CONTENT_SECURITY_POLICY)}">` +
      `<meta name="referrer" content="no-referrer"><meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<title>transcript-doctor report</title><style>${STYLE}</style></head>\n<body>` +
      `<header class="page"><h1>transcript-doctor</h1>${summaryHtml(reports)}` +
      `<div class="controls"><button type="button" data-folds="open">Open all folds</button><button type="button" data-folds="close">Close all folds</button></div></header>\n` +
      `<main>${sections.join('\n')}${cleanHtml(clean)}</main>\n<script>${SCRIPT}</script></body></html>\n`
    );
  },
  { needs: { timeline: true } },
);

function hasNews(report: FileReport): boolean {
  const repair = report.repair;
  return report.findings.length > 0 || repair?.changed === true || repair?.note !== undefined || (report.verdicts ?? []).some((v) => v.verdict === 'FAIL' || v.verdict === 'ERROR');
}

function summaryHtml(reports: readonly FileReport[]): string {
  const summary = summarize(reports);
  const problems = summary.errors + summary.warnings + summary.infos;
  const files = plural(summary.files, 'file');
  if (problems === 0) return `<p class="summary good">No problems in ${files}.</p>`;
  const affected = reports.filter((report) => report.findings.length > 0).length;
  const parts = [plural(summary.errors, 'error'), plural(summary.warnings, 'warning'), ...(summary.infos > 0 ? [`${count(summary.infos)} info`] : [])];
  return `<p class="summary ${summary.errors > 0 ? 'bad' : ''}">${plural(problems, 'problem')} (${parts.join(', ')}) in ${count(affected)} of ${files}.</p>`;
}

function fileHtml(report: FileReport, fileNumber: number, options: { dryRun?: boolean; verb?: 'repair' | 'canonicalize' | 'slim' }): string {
  const findings = [...report.findings].sort((a, b) => a.line - b.line || SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity]);
  const drawn = findings.slice(0, MAX_FINDINGS_SHOWN);
  let next = 0;
  const pins: Pins = { path: report.repair?.output ?? report.path, waiting: byLine(drawn), ids: new Map(), newId: () => `file${fileNumber}-finding${++next}` };
  const timeline = report.timeline === undefined ? undefined : timelineHtml(report.timeline.items, pins);
  // What the timeline did not place (no timeline, or a line beyond its neighbourhoods) is listed on its own.
  const rest = drawn.filter((finding) => !pins.ids.has(finding));
  const restCards = rest.map((finding) => {
    const id = pins.newId();
    pins.ids.set(finding, id);
    return findingHtml(finding, pins.path, id);
  });
  const counts = report.timeline?.counts;
  const facts = [
    severityCounts(findings),
    counts === undefined ? undefined : `${plural(counts.replayed, 'entry', 'entries')} replayed`,
    counts !== undefined && counts.compacted > 0 ? `${count(counts.compacted)} compacted` : undefined,
    counts !== undefined && counts.abandoned > 0 ? `${count(counts.abandoned)} off the replayed path` : undefined,
  ].filter(Boolean);
  return (
    `<section class="file" id="file${fileNumber}" data-path="${h(report.path)}">` +
    `<h2>${h(report.path)} <span class="format">${h(report.format === null ? '(no known format)' : `(${report.format})`)}</span></h2>` +
    (facts.length > 0 ? `<p class="file-summary">${h(facts.join(' · '))}</p>` : '') +
    repairHtml(report, options) +
    indexHtml(drawn, pins.ids) +
    (findings.length > drawn.length ? `<p class="dim">${plural(findings.length - drawn.length, 'more finding')} not drawn here: see --reporter json.</p>` : '') +
    (report.timeline?.textNote === undefined ? '' : `<p class="dim">${h(report.timeline.textNote)}</p>`) +
    (timeline?.html ?? '') +
    (restCards.length === 0 ? '' : `<div class="unplaced"><h3>${timeline === undefined ? 'Findings' : 'Findings outside the drawn turns'}</h3>${restCards.join('')}</div>`) +
    verdictsHtml(report) +
    `</section>`
  );
}

function byLine(findings: readonly Finding[]): Map<number, Finding[]> {
  const lines = new Map<number, Finding[]>();
  for (const finding of findings) lines.set(finding.line, [...(lines.get(finding.line) ?? []), finding]);
  return lines;
}

function severityCounts(findings: readonly Finding[]): string | undefined {
  if (findings.length === 0) return undefined;
  const count = (severity: Finding['severity']) => findings.filter((finding) => finding.severity === severity).length;
  const parts = [[count('error'), 'error'], [count('warning'), 'warning'], [count('info'), 'info']] as const;
  return parts.filter(([n]) => n > 0).map(([n, word]) => plural(n, word, word === 'info' ? 'info' : `${word}s`)).join(', ');
}

function indexHtml(findings: readonly Finding[], ids: Map<Finding, string>): string {
  if (findings.length === 0) return '';
  const items = findings.map(
    (finding) => `<li><a href="#${h(ids.get(finding)!)}">line ${count(finding.line)}</a> <span class="sev-${h(finding.severity)}"><span class="sev">${h(finding.severity)}</span></span> <span class="rule">${h(finding.rule)}</span> ${h(finding.message)}</li>`,
  );
  return `<ol class="index">${items.join('')}</ol>`;
}

function repairHtml(report: FileReport, options: { dryRun?: boolean; verb?: 'repair' | 'canonicalize' | 'slim' }): string {
  if (report.repair === undefined) return '';
  return `<p class="repair">${h(describeRepair(report.repair, options.dryRun ?? false, report.path, options.verb ?? 'repair'))}</p>`;
}

function verdictsHtml(report: FileReport): string {
  const judged = (report.verdicts ?? []).filter((verdict) => verdict.verdict === 'FAIL' || verdict.verdict === 'ERROR');
  if (judged.length === 0) return '';
  const items = judged.map((verdict) => `<li>line ${count(verdict.line)} <strong>${h(verdict.verdict)}</strong> ${h(describeVerdict(verdict))}</li>`);
  return `<h3>Judged answers</h3><ul class="verdicts">${items.join('')}</ul>`;
}

function cleanHtml(clean: readonly FileReport[]): string {
  if (clean.length === 0) return '';
  const listed = clean.slice(0, MAX_CLEAN_LISTED).map((report) => `<li>${h(report.path)}</li>`);
  const more = clean.length > listed.length ? `<li>… and ${count(clean.length - listed.length)} more</li>` : '';
  return `<details class="clean-files"><summary>${plural(clean.length, 'file')} without problems</summary><ul class="clean">${listed.join('')}${more}</ul></details>`;
}
