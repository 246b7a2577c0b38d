import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer. `text` answers in the wire format of the path asked (Anthropic or OpenAI). */
export type Reply =
  | { text: string }
  | { status: number; json?: unknown; raw?: string; headers?: Record<string, string> }
  | { hang: true };

export interface Captured {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface FakeProvider {
  /** Origin, without a path: append "/v1" for the OpenAI protocol. */
  url: string;
  requests: Captured[];
  close(): Promise<void>;
}

/**
 * An HTTP server on 127.0.0.1 that speaks both Messages and Chat Completions and answers
 * `replies` in order, or asks a function for each reply.
 */
export async function startFakeProvider(replies: Reply[] | ((request: Captured, index: number) => Reply)): Promise<FakeProvider> {
  const requests: Captured[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      requests.push({ method: request.method ?? '', path, headers: request.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> });
      const reply = typeof replies === 'function' ? replies(requests.at(-1)!, requests.length - 1) : replies.shift() ?? { status: 599, json: { error: { message: 'no scripted reply left' } } };
      if ('hang' in reply) return;
      if ('text' in reply) {
        const body = path.endsWith('/v1/messages')
          ? { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text: reply.text }], stop_reason: 'end_turn' }
          : { id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: reply.text }, finish_reason: 'stop' }] };
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        return;
      }
      response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(reply.raw ?? JSON.stringify(reply.json ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // A hanging request would otherwise keep close() waiting forever.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
