import picomatch from 'picomatch';
import { SKIPPED_FOLDER, type SearchRules } from './find-files.js';

// Loaded only for an argument that names no file or folder (see expandInputs): picomatch costs startup time.

export function isGlob(pattern: string): boolean {
  return picomatch.scan(pattern).isGlob;
}

/**
 * Where to start searching for a glob pattern (its part without wildcards) and rules that
 * take the files the rest of the pattern matches. Folders are entered only as deep as the
 * pattern can reach, and only where its segments match, so `logs/*.jsonl` reads one folder.
 * Like the shell, wildcards do not match names starting with a dot unless the pattern spells one.
 */
export function globSearch(pattern: string): { root: string; rules: SearchRules } {
  const { base, glob } = picomatch.scan(pattern);
  const matches = picomatch(glob, { dot: false });
  const parts = picomatch.scan(glob, { parts: true }).parts ?? [glob];
  // From this depth on a segment may span several folders (`**`, or braces holding a slash): enter any.
  const free = parts.findIndex((part) => part === '**' || part.includes('/'));
  const segments = parts.slice(0, free === -1 ? parts.length : free).map((part) => picomatch(part, { dot: false }));
  const dotted = parts.some((part) => part.startsWith('.') || part.includes('/.'));
  return {
    root: base === '' ? '.' : base,
    rules: {
      enter: (relative, name) => {
        if (name === SKIPPED_FOLDER) return false;
        const depth = relative.split('/').length;
        if (depth <= segments.length) return depth < parts.length && segments[depth - 1]!(name);
        return free !== -1 && (dotted || !name.startsWith('.'));
      },
      wants: (relative) => matches(relative),
    },
  };
}
