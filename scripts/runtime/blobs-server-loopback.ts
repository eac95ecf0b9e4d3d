/**
 * Workaround for @netlify/blobs' local BlobsServer (11.1.1): it listens through @netlify/dev-utils'
 * HTTPServer, whose `start(port)` calls `listen(port)` with no host, so the server answers on every
 * interface (`[::]`). Behind its one bearer token are the local signing keys and the contact
 * enquiries. No upstream issue is filed for it yet.
 *
 * The fix, local only: BlobsServer.start listens on 127.0.0.1 with a small Node-to-fetch bridge to
 * the server's own request handler (the same handler, the same answers). Production code never
 * imports this file.
 */
import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BlobsServer } from '@netlify/blobs/server';
import { answerHelp } from '../usage.ts';

/** The only address the local Blobs server listens on. */
export const LOCAL_BLOBS_HOST = '127.0.0.1';

interface PatchableServer {
  directory: string;
  port?: number;
  address: string;
  server?: { stop(): Promise<unknown> };
  handleRequest(req: Request): Promise<Response>;
}

async function bridge(server: PatchableServer, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  const method = req.method ?? 'GET';
  const request = new Request(new URL(req.url ?? '/', server.address), {
    method,
    headers,
    ...(method === 'GET' || method === 'HEAD' ? {} : { body: Buffer.concat(chunks) }),
  });
  const answer = await server.handleRequest(request);
  const body = Buffer.from(await answer.arrayBuffer());
  res.writeHead(answer.status, Object.fromEntries(answer.headers));
  res.end(method === 'HEAD' ? undefined : body);
}

const proto = BlobsServer.prototype as unknown as PatchableServer & { start(): Promise<unknown>; __loopback?: boolean };
if (!proto.__loopback) {
  proto.__loopback = true;
  proto.start = async function (this: PatchableServer) {
    await mkdir(this.directory, { recursive: true });
    const http: Server = createServer((req, res) => {
      bridge(this, req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    });
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(this.port ?? 0, LOCAL_BLOBS_HOST, resolve);
    });
    const { port } = http.address() as AddressInfo;
    this.address = `http://${LOCAL_BLOBS_HOST}:${port}`;
    this.server = {
      stop: () =>
        new Promise<void>((resolve) => {
          http.closeAllConnections();
          http.close(() => resolve());
        }),
    };
    return { address: this.address, family: 'ipv4', port };
  };
}

if (import.meta.main) answerHelp('Usage: imported, not run: importing it makes the local Netlify Blobs server listen on 127.0.0.1 only.');
