/**
 * Characters that act on a terminal or on how text is drawn instead of showing: C0 controls
 * (ESC starts colour, title and hyperlink sequences, BEL ends them, a newline would forge a line
 * of the report), DEL, C1 controls (0x9b is a one-byte CSI), and the bidi controls (embeddings,
 * overrides, isolates, marks) that reorder what is shown around them.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Bidi controls only: in a page the browser ignores C0 and C1, but still reorders text around these. */
export const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Text from a transcript or a report (ids, tool names, paths, messages), made safe to print on a
 * terminal: every character above is written as the JavaScript escape that names it — `\n`,
 * `\t`, `\r`, `\x1b` for the others below U+0100, `\u202e` for bidi controls — so it is seen
 * rather than obeyed. For reading only: a literal backslash is left as it is.
 */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, visibleControl);
}

/** The escape that names one control character. */
export function visibleControl(char: string): string {
  const short = SHORT[char];
  if (short !== undefined) return short;
  const code = char.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}
