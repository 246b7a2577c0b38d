import { isAscii } from 'node:buffer';

/**
 * A line's bytes as text. Most lines of a session are pure ASCII, and for those latin1 decoding
 * gives the very same string about four times faster than UTF-8 decoding (measured on a
 * real-shaped Copilot CLI session: 30 against 130 ms for 64 MiB), a fifth of a scan. `ascii`:
 * whether the bytes are, when the caller has asked already.
 */
export function lineText(bytes: Buffer, ascii = isAscii(bytes)): string {
  return ascii ? bytes.toString('latin1') : bytes.toString('utf8');
}
