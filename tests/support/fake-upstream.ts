/** A real HTTP server on loopback standing in for a third party we cannot reach (tweet upstream, webhook). */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll } from 'vitest';

export type FakeHandler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

export interface FakeUpstream {
  readonly url: string;
  /** Requests received, in order. */
  readonly requests: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[];
  respondWith(handler: FakeHandler): void;
}

export function useFakeUpstream(): FakeUpstream {
  let server: Server | undefined;
  let url = '';
  let handler: FakeHandler = (_req, _body, res) => res.writeHead(500).end();
  const requests: FakeUpstream['requests'] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        handler(req, body, res);
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });
  return {
    get url() {
      return url;
    },
    requests,
    respondWith(next) {
      handler = next;
    },
  };
}

export const sendJson = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
};
