// A small local HTTP server for the faults a real Cairn cannot be made to produce: it answers each
// request with what the test's handler does (write an answer, hang, or destroy the socket).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Stub {
  baseUrl: string;
  /** Every request's method, path and headers, in arrival order. */
  requests: { method: string; url: string; headers: IncomingMessage['headers']; at: number }[];
  close(): Promise<void>;
}

export async function startStub(
  handle: (req: IncomingMessage, res: ServerResponse, nth: number, body: string) => void,
): Promise<Stub> {
  const requests: Stub['requests'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, at: Date.now() });
      handle(req, res, requests.length, Buffer.concat(chunks).toString('utf8'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const problem =
  (status: number, code: string, headers: Record<string, string> = {}, extra: object = {}) =>
  (res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/problem+json', ...headers });
    res.end(
      JSON.stringify({
        type: 'about:blank',
        title: code,
        status,
        detail: `${code}!`,
        code,
        requestId: 'req-1',
        ...extra,
      }),
    );
  };
