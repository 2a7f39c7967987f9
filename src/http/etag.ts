// ETags (docs/decisions.md §8). A single resource's answer (an object with an `id` and an `updatedAt`, or
// only a `createdAt` when the API never changes it) carries `ETag: "<version>-<digest>"`: the version is
// the resource's updatedAt, which every change to it moves; the digest is of the exact bytes sent, so it
// also changes when an expanded neighbour does.
//  - `If-None-Match` on GET compares the whole tag: 304 only when the same bytes would be sent.
//  - `If-Match` on a write compares the version alone (a tag from any expansion of the resource will
//    do), inside the write's transaction, after the row is locked (preconditions.ts): 412 when the
//    resource changed since, and then nothing is written.
import { hash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { versionOf } from '../preconditions.ts';

const versions = new WeakMap<FastifyRequest, string>();

/** The entity-tags of an If-Match / If-None-Match header; `*` as is; weak tags keep their W/. */
export function entityTags(header: string | string[] | undefined): string[] {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return [];
  return value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

export function registerEtags(app: FastifyInstance): void {
  app.addHook('preSerialization', async (request, reply, payload) => {
    if (reply.statusCode !== 200 && reply.statusCode !== 201) return payload;
    const p = payload as { id?: unknown; updatedAt?: unknown; createdAt?: unknown } | null;
    if (!p || typeof p !== 'object' || typeof p.id !== 'string') return payload;
    // A resource the API never changes (an API token, a webhook subscription) has no updatedAt: its
    // version is its createdAt, which is what If-Match on its DELETE compares.
    const version = typeof p.updatedAt === 'string' ? p.updatedAt : p.createdAt;
    if (typeof version === 'string') versions.set(request, versionOf(version));
    return payload;
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const version = versions.get(request);
    if (version === undefined || typeof payload !== 'string') return payload;
    const tag = `"${version}-${hash('sha1', payload, 'base64url').slice(0, 16)}"`;
    reply.header('etag', tag);
    if (request.method === 'GET') {
      const given = entityTags(request.headers['if-none-match']);
      // Weak comparison, as RFC 9110 asks for If-None-Match.
      if (given.some((t) => t === '*' || t.replace(/^W\//, '') === tag)) {
        reply.code(304);
        reply.removeHeader('content-type');
        reply.removeHeader('content-length');
        return '';
      }
    }
    return payload;
  });
}
