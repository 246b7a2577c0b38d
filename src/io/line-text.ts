/**
 * A line's bytes as text; `ascii`: whether they are pure ASCII (Buffer.isAscii). For those, latin1
 * decoding gives the very same string several times faster than UTF-8 decoding (64 MiB of such
 * lines: 30 against 130 ms). The large lines of a real session mostly hold some non-ASCII text,
 * so a scan gains a few percent; a generated all-ASCII dataset decodes every line this way.
 */
export function lineText(bytes: Buffer, ascii: boolean): string {
  return ascii ? bytes.toString('latin1') : bytes.toString('utf8');
}
