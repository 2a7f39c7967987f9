// Requests Node's HTTP parser refuses before Fastify sees them: a request line and headers over 16 KiB
// (a very long query string, say), malformed HTTP, a client too slow to send its headers or its body
// (CAIRN_REQUEST_TIMEOUT_MS, app.ts). They get
// the same problem+json as every other refusal (Fastify's default is a bare JSON of its own shape).
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { ERROR_TITLES } from './errors.ts';

function detailOf(code: string | undefined): string {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return 'The request line and headers are over 16 KiB together; send long input in a POST body';
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'The request was not received in time';
  return 'The request is not valid HTTP';
}

export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const body = JSON.stringify({
      type: 'urn:cairn:problem:validation_failed',
      title: ERROR_TITLES.validation_failed,
      status: 400,
      detail: detailOf(error.code),
      code: 'validation_failed',
      requestId: randomUUID(),
    });
    socket.write(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
