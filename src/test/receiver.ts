// A real HTTP server that webhook tests deliver to: it records every request and answers as told.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** When it arrived (Date.now()). */
  at: number;
  // biome-ignore lint/suspicious/noExplicitAny: the parsed delivery; tests assert its exact shape.
  json: any;
}

interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
}

export interface Receiver {
  /** http://127.0.0.1:<port> */
  base: string;
  received: Received[];
  /** How to answer a request to `path` (default 200). */
  answer(path: string, fn: (r: Received, nth: number) => Answer): void;
  /** The requests to `path` once there are at least `n` of them (fails after `timeoutMs`). */
  waitFor(path: string, n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const answers = new Map<string, (r: Received, nth: number) => Answer>();
  const counts = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const r: Received = { path: req.url ?? '', headers: req.headers, body, json, at: Date.now() };
      received.push(r);
      const nth = (counts.get(r.path) ?? 0) + 1;
      counts.set(r.path, nth);
      const a = answers.get(r.path)?.(r, nth) ?? { status: 200 };
      const reply = () => {
        res.writeHead(a.status, a.headers);
        res.end();
      };
      // Straight away unless told to wait: a timer, even of 0 ms, would add a millisecond to every delivery.
      if (a.delayMs) setTimeout(reply, a.delayMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    received,
    answer: (path, fn) => answers.set(path, fn),
    async waitFor(path, n, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const got = counts.get(path) ?? 0;
        if (got >= n) return received.filter((r) => r.path === path);
        if (Date.now() > until) throw new Error(`${path}: ${got} of ${n} deliveries after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
