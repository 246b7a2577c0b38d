import { call, Session, text } from './session.js';

type Json = Record<string, unknown>;

/**
 * The bytes of a PNG as far as a header reader looks: signature and IHDR of `width` × `height`,
 * then filler up to `bytes`, so a test can ask for a 6 MB or a 9000-pixel image without drawing one.
 */
export function pngBytes(width: number, height: number, bytes = 64): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr.set([8, 6, 0, 0, 0], 16);
  const head = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr]);
  return Buffer.concat([head, Buffer.alloc(Math.max(0, bytes - head.length), 7)]);
}

/** A pi image block of a PNG of that size. */
export function pngBlock(width: number, height: number, bytes?: number): Json {
  return { type: 'image', data: pngBytes(width, height, bytes).toString('base64'), mimeType: 'image/png' };
}

/** The usage a pi assistant turn records, as Anthropic counts the request (input + cache). */
export function usage(input: number): Json {
  return { input: 0, output: 50, cacheRead: input, cacheWrite: 0, totalTokens: input + 50 };
}

/** An assistant turn of `model` on `provider` that calls one tool and recorded `recorded` input tokens. */
export function callTurn(session: Session, id: string, recorded: number, model = 'claude-sonnet-4-5', provider = 'anthropic', api = 'anthropic-messages'): Session {
  return session.assistant([text('Let me look.'), call(id, 'read', { path: 'src/big.ts' })], 'toolUse', { message: { usage: usage(recorded), model, provider, api } });
}

/** Source-like text of about `chars` characters (code is what sessions are big with). */
export function codeText(chars: number): string {
  const line = 'export function handler(request: Request): Response { return new Response(JSON.stringify({ ok: true })); }\n';
  return line.repeat(Math.ceil(chars / line.length)).slice(0, chars);
}

/**
 * A session that recorded `recorded` input tokens at its last call, whose result then returned
 * `chars` characters of code: what a resume sends is the recorded count plus the result.
 */
export function grownSession(recorded: number, chars: number, model = 'claude-sonnet-4-5', provider = 'anthropic', api = 'anthropic-messages'): Session {
  const session = new Session().user('Refactor the handlers');
  callTurn(session, 'c1', recorded, model, provider, api);
  return session.result('c1', 'read', { message: { content: [text(codeText(chars))] } });
}
