import type { Readable } from 'node:stream';
import { reason } from '../errors.js';
import { sizeInWords } from '../io/bounded-read.js';

/**
 * The most of standard input a hook reads. The events we handle send ids and paths, but an agent
 * may put much more in a hook's input (Claude Code's carry a prompt, or a tool's whole input and
 * output, and fields are added from release to release), and a hook that turns a big input away
 * fails its agent for nothing: 1 MiB did, on a 1.1 MB input. 16 MiB is far above any input an
 * agent is known to send, and still memory a short-lived process holds without notice.
 */
export const MAX_HOOK_INPUT = 16 * 1024 * 1024;
/** An agent closes our standard input once it has written; one that never does must not keep its hook waiting. */
export const HOOK_INPUT_WAIT_MS = 10_000;

/**
 * The JSON object the agent sends on standard input, read whole. Anything else (nothing, a
 * terminal, not JSON, more than `maxBytes`, no end within `waitMs`) rejects with a one-line
 * message. Input past the bound is read and dropped until it ends, so the agent writing it never
 * meets a closed pipe; the wait bounds that too.
 */
export function readHookInput(stdin: Readable & { isTTY?: boolean }, maxBytes = MAX_HOOK_INPUT, waitMs = HOOK_INPUT_WAIT_MS): Promise<Record<string, unknown>> {
  if (stdin.isTTY === true) return Promise.resolve(parseHookInput(''));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (outcome: () => Record<string, unknown>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stdin.removeAllListeners('data');
      stdin.destroy();
      try {
        resolve(outcome());
      } catch (error) {
        reject(error as Error);
      }
    };
    const tooLarge = () => new Error(`the hook input on standard input is more than ${sizeInWords(maxBytes)}; nothing done`);
    const timer = setTimeout(
      () =>
        finish(() => {
          throw size > maxBytes ? tooLarge() : new Error(`the hook input on standard input did not end within ${waitMs / 1000} s; nothing done`);
        }),
      waitMs,
    );
    stdin.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else chunks.length = 0;
    });
    stdin.on('end', () =>
      finish(() => {
        if (size > maxBytes) throw tooLarge();
        return parseHookInput(Buffer.concat(chunks).toString('utf8'));
      }),
    );
    stdin.on('error', (error) =>
      finish(() => {
        throw new Error(`cannot read the hook input on standard input (${reason(error)})`);
      }),
    );
  });
}

function parseHookInput(text: string): Record<string, unknown> {
  if (text.trim() === '') throw new Error('no hook input on standard input (agents send a JSON object)');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('the hook input on standard input is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('the hook input on standard input is not a JSON object');
  return value as Record<string, unknown>;
}
