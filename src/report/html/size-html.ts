import type { SizeSummary } from '../../pipeline/size-summary.js';
import { kindsBySize, sizeHeadline, totalTokens } from '../size-text.js';
import { escapeHtml as h } from './escape.js';
import { count } from './words.js';

function share(part: number, whole: number): string {
  return whole <= 0 ? '0%' : `${Math.round((100 * part) / whole)}%`;
}

function rows(items: Array<{ name: string; tokens: number; bytes: number; count: number }>, whole: number): string {
  return items.map((item) => `<tr><td>${h(item.name)}</td><td>${share(item.tokens, whole)}</td><td>${count(item.tokens)}</td><td>${count(item.bytes)}</td><td>${count(item.count)}</td></tr>`).join('');
}

const HEAD = '<tr><th></th><th>share</th><th>tokens</th><th>bytes</th><th>count</th></tr>';

/** What makes a session big, for a file a size rule found something in: by kind, by tool, the largest entries with their lines. */
export function sizeHtml(size: SizeSummary | undefined): string {
  if (size === undefined) return '';
  const whole = totalTokens(size);
  const kinds = kindsBySize(size).map((kind) => ({ name: kind.kind, ...kind }));
  const tools = size.byTool.map((tool) => ({ name: tool.tool, ...tool }));
  const largest = size.largest.map(
    (entry) => `<li>line ${count(entry.line)} <span class="rule">${h(entry.kind)}${entry.tool === null ? '' : ` ${h(entry.tool)}`}</span> ${count(entry.bytes)} bytes ≈ ${count(entry.tokens)} tokens</li>`,
  );
  return (
    `<details class="size" open><summary>Size of the request a resume sends: ${h(sizeHeadline(size))}</summary>` +
    `<p class="dim">${count(size.bytes)} bytes · ${count(size.media.images)} images, ${count(size.media.pdfPages)} PDF pages${size.window === null ? '' : ` · window source: ${h(size.window.source)}`}</p>` +
    `<table><caption>By kind</caption>${HEAD}${rows(kinds, whole)}</table>` +
    (tools.length === 0 ? '' : `<table><caption>Tool output by tool</caption>${HEAD}${rows(tools, whole)}</table>`) +
    (largest.length === 0 ? '' : `<h3>Largest entries</h3><ol class="largest">${largest.join('')}</ol>`) +
    `</details>`
  );
}
