import { BIDI_CONTROLS, visibleControl } from '../terminal-text.js';

/**
 * Text made safe as HTML element content or a double-quoted attribute value. Besides the five
 * markup characters: C0 controls (and DEL) become U+FFFD, since a browser may drop or misread
 * them; U+2028 and U+2029, which end a line in JavaScript, are written as references so no
 * text of a transcript can ever sit raw in the page where a script might read it. Bidi controls
 * are shown as their escapes (`\u202e`), the same as on a terminal: a character reference would
 * still reorder the text around it, and let a file name or an id read as something else.
 */
export function escapeHtml(text: string): string {
  return text
    .replace(BIDI_CONTROLS, visibleControl)
    .replace(/[&<>"'\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u2028\u2029]/g, (char) => REPLACEMENTS[char] ?? '\uFFFD');
}

const REPLACEMENTS: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '\u2028': '&#x2028;',
  '\u2029': '&#x2029;',
};
