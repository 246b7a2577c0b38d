import type { Finding } from '../../pipeline/finding.js';
import type { TimelineFold, TimelineGap, TimelineItem, TimelineTurn, TurnRole } from '../../pipeline/timeline.js';
import { escapeHtml as h } from './escape.js';
import { count, plural } from './words.js';
import { findingHtml } from './finding-html.js';

/** Where findings wait to be pinned to their line's turn, and how cards are named. */
export interface Pins {
  path: string;
  /** Findings by line, taken out as they are pinned. */
  waiting: Map<number, Finding[]>;
  /** The card id of each pinned finding, for the file's index of findings. */
  ids: Map<Finding, string>;
  newId(): string;
}

/** Characters of a turn's text shown before "more". */
const EXCERPT_CHARS = 200;

const ROLE_LABEL: Record<TurnRole, string> = {
  user: 'user',
  assistant: 'assistant',
  tool: 'tool result',
  other: 'other',
  compaction: 'compaction summary',
  'branch-summary': 'branch summary',
  context: 'context',
  state: 'state',
  header: 'header',
  unknown: 'unknown',
  line: 'unreadable line',
};

const FOLD_LABEL: Record<TimelineFold['kind'], string> = {
  compacted: 'Compacted history: replaced by the compaction summary, not replayed',
  abandoned: 'Abandoned branch: not replayed',
  detached: 'Disconnected entries: not linked to the replayed path, not replayed',
};


/** A list of timeline items; returns the markup and how many findings it pinned. */
export function timelineHtml(items: readonly TimelineItem[], pins: Pins): { html: string; pinned: number } {
  let pinned = 0;
  const parts = items.map((item) => {
    if (item.type === 'gap') return gapHtml(item);
    const drawn = item.type === 'turn' ? turnHtml(item, pins) : foldHtml(item, pins);
    pinned += drawn.pinned;
    return drawn.html;
  });
  return { html: `<ol class="timeline">${parts.join('')}</ol>`, pinned };
}

function gapHtml(gap: TimelineGap): string {
  const what = [gap.turns > 0 ? plural(gap.turns, 'turn') : undefined, gap.folds > 0 ? `${plural(gap.folds, 'folded region')} (${plural(gap.foldedEntries, 'entry', 'entries')})` : undefined];
  const lines = gap.fromLine === gap.toLine ? `line ${count(gap.fromLine)}` : `lines ${count(gap.fromLine)}–${count(gap.toLine)}`;
  return `<li class="gap" data-turns="${h(String(gap.turns))}">… ${h(what.filter(Boolean).join(', '))} not shown (${lines}) …</li>`;
}

function foldHtml(fold: TimelineFold, pins: Pins): { html: string; pinned: number } {
  const inner = timelineHtml(fold.items, pins);
  const lines = fold.fromLine === fold.toLine ? `line ${count(fold.fromLine)}` : `lines ${count(fold.fromLine)}–${count(fold.toLine)}`;
  const fork = fold.forkLine === undefined ? '' : `, forks after line ${count(fold.forkLine)}`;
  const badge = inner.pinned > 0 ? `<span class="badge">${plural(inner.pinned, 'finding')}</span>` : '';
  return {
    html:
      `<li class="fold fold-${h(fold.kind)}" data-entries="${h(String(fold.entries))}"><details><summary>${h(FOLD_LABEL[fold.kind] ?? fold.kind)} · ` +
      `${plural(fold.entries, 'entry', 'entries')} (${lines}${fork})${badge}</summary>${inner.html}</details></li>`,
    pinned: inner.pinned,
  };
}

function turnHtml(turn: TimelineTurn, pins: Pins): { html: string; pinned: number } {
  const here = pins.waiting.get(turn.line) ?? [];
  pins.waiting.delete(turn.line);
  const cards = here.map((finding) => {
    const id = pins.newId();
    pins.ids.set(finding, id);
    return findingHtml(finding, pins.path, id);
  });
  const meta = [
    turn.outcome === undefined ? undefined : `ended: ${turn.outcome}`,
    ...(turn.calls ?? []).map((call) => `calls ${call.name ?? '(no name)'}${call.id === undefined ? '' : ` (${call.id})`}`),
    ...(turn.results ?? []).map((result) => `result for ${result.callId ?? '(no id)'}${result.name === undefined ? '' : ` (${result.name})`}`),
  ].filter((part): part is string => part !== undefined);
  const html =
    `<li class="turn role-${h(turn.role)}${cards.length > 0 ? ' pinned' : ''}" data-line="${h(String(turn.line))}">` +
    `<div class="turn-head"><span class="ln">line ${count(turn.line)}</span><span class="role">${h(ROLE_LABEL[turn.role] ?? turn.role)}</span>` +
    (meta.length > 0 ? `<span class="meta">${h(meta.join(' · '))}</span>` : '') +
    `</div>${textHtml(turn)}${cards.join('')}</li>`;
  return { html, pinned: cards.length };
}

function textHtml(turn: TimelineTurn): string {
  const note = turn.note === undefined ? '' : `<div class="note">${h(turn.note)}</div>`;
  const text = turn.text;
  if (text === undefined || text === '') return note;
  const flat = text.replace(/\s+/g, ' ').trim();
  const excerpt = flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS)}…` : flat;
  const total = turn.textChars;
  const longer = flat.length > EXCERPT_CHARS || total !== undefined || text.includes('\n');
  const shown = total !== undefined ? `first ${count(text.length)} of ${count(total)} characters` : `${count(text.length)} characters`;
  return (
    `<div class="text">${h(excerpt)}</div>` +
    (longer ? `<details class="more"><summary>more (${shown})</summary><pre>${h(text)}</pre></details>` : '') +
    note
  );
}
