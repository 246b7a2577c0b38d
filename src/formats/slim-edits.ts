import type { EntryEdit } from '../model/edits.js';
import { isObject } from './json.js';
import { slotAt } from './json-pointer.js';
import type { SlimView } from './slim-view.js';

type SlimEdit = Extract<EntryEdit, { kind: 'stub-media' | 'trim-text' | 'drop-parts' }>;

function isSlimEdit(edit: EntryEdit): edit is SlimEdit {
  return edit.kind === 'stub-media' || edit.kind === 'trim-text' || edit.kind === 'drop-parts';
}

/**
 * Applies slim's edits to a parsed line, the same way for every format: its pointers come from the
 * format's own SlimView, so only the stub's text block needs the format. Stubs and trims go first,
 * then the drops, each list from its last item back, so no pointer moves before it is used.
 */
export function applySlimEdits(value: unknown, edits: readonly EntryEdit[], view: SlimView): void {
  const slim = edits.filter(isSlimEdit);
  if (slim.length === 0) return;
  for (const edit of slim) {
    if (edit.kind === 'stub-media') {
      const slot = slotAt(value, edit.pointer);
      if (slot !== undefined) setSlot(slot.container, slot.key, view.textBlock(getSlot(slot.container, slot.key), edit.text));
    } else if (edit.kind === 'trim-text') {
      const slot = slotAt(value, edit.pointer);
      const text = slot === undefined ? undefined : getSlot(slot.container, slot.key);
      if (slot !== undefined && typeof text === 'string') setSlot(slot.container, slot.key, trimmedText(text, edit.head, edit.tail, edit.stub));
    }
  }
  const drops = slim.flatMap((edit) => (edit.kind === 'drop-parts' ? edit.pointers : []));
  const slots = drops.map((pointer) => slotAt(value, pointer)).filter((slot) => slot !== undefined && Array.isArray(slot.container));
  slots.sort((a, b) => Number(b!.key) - Number(a!.key));
  for (const slot of slots) (slot!.container as unknown[]).splice(Number(slot!.key), 1);
}

/**
 * The text kept of a trimmed string: its head, the stub, its tail. Cut between UTF-16 code units of
 * one character, a half would be written as U+FFFD, so each cut steps off a surrogate pair's middle.
 */
export function trimmedText(text: string, head: number, tail: number, stub: string): string {
  if (head + tail >= text.length) return text;
  let end = head;
  if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1))) end--;
  let start = text.length - tail;
  if (start < text.length && isLowSurrogate(text.charCodeAt(start))) start++;
  return `${text.slice(0, end)}${stub}${text.slice(start)}`;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

function getSlot(container: Record<string, unknown> | unknown[], key: string | number): unknown {
  return (container as Record<string | number, unknown>)[key];
}

function setSlot(container: Record<string, unknown> | unknown[], key: string | number, value: unknown): void {
  (container as Record<string | number, unknown>)[key] = value;
}

/** Argument names that say what a call acted on, for the stub of its result (the first one present wins). */
const TARGET_ARGUMENTS = ['file_path', 'path', 'filePath', 'absolute_path', 'notebook_path', 'command', 'cmd', 'pattern', 'query', 'url', 'description'];

/** What a call's arguments say it acted on (a path, a command), shortened for a stub; undefined when they say nothing. */
export function callTarget(args: unknown): string | undefined {
  let parsed = args;
  if (typeof args === 'string') {
    try {
      parsed = JSON.parse(args);
    } catch {
      return undefined;
    }
  }
  if (!isObject(parsed)) return undefined;
  for (const name of TARGET_ARGUMENTS) {
    let found = parsed[name];
    if (Array.isArray(found)) found = found.filter((part) => typeof part === 'string').join(' ');
    if (typeof found === 'string' && found.trim() !== '') return shorten(found.trim().replace(/\s+/g, ' '), 160);
  }
  return undefined;
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
