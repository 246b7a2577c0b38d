import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface JudgeRequest {
  protocol: 'anthropic' | 'openai';
  path: string;
  headers: IncomingHttpHeaders;
  system: string;
  user: string;
}

export interface Scripted {
  status?: number;
  /** The judge's reply text (wrapped in the protocol's envelope). */
  text?: string;
  /** A raw body instead of an envelope. */
  raw?: string;
  headers?: Record<string, string>;
  /** Never answer (for timeouts). */
  hang?: boolean;
}

/** A judge on 127.0.0.1 that speaks Anthropic Messages and OpenAI Chat Completions and answers from a script. */
export async function startJudgeServer(script: (request: JudgeRequest, index: number) => Scripted) {
  const requests: JudgeRequest[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const json = JSON.parse(body || '{}');
      const protocol = req.url?.endsWith('/v1/messages') ? 'anthropic' : 'openai';
      const system = protocol === 'anthropic' ? json.system : json.messages?.find((m: { role: string }) => m.role === 'system')?.content;
      const user = json.messages?.find((m: { role: string }) => m.role === 'user')?.content;
      const request: JudgeRequest = { protocol, path: req.url ?? '', headers: req.headers, system, user };
      requests.push(request);
      const reply = script(request, requests.length - 1);
      if (reply.hang) return;
      const envelope = protocol === 'anthropic' ? { content: [{ type: 'text', text: reply.text ?? '' }] } : { choices: [{ message: { role: 'assistant', content: reply.text ?? '' } }] };
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.raw ?? JSON.stringify(envelope));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
