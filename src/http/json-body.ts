// Request bodies: JSON only (application/json or any application/…+json), in UTF-8 only. Every other
// media type, text/plain included, is 415; so is a JSON body that declares another charset. Bytes that
// are not UTF-8 are 400 invalid_json: a lenient decoder would store U+FFFD in their place, and the
// client would never learn that its text was changed. An empty body (as some clients send with
// POST …/restore) means "no body".
import { MIMEType } from 'node:util';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

export const BODY_LIMIT = 2 * 1024 * 1024;
/** No request shape nests deeper than a few levels; far deeper bodies overflowed validation (500). */
const MAX_DEPTH = 32;

/** How deep a JSON text nests (arrays and objects), counted without recursion; strings are skipped. */
function nestingOf(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // a backslash escapes the next character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (c === 93 || c === 125) depth--;
  }
  return deepest;
}

/**
 * The `charset` parameter of a Content-Type, or null when there is none. Quotes and case follow
 * RFC 9110 (`charset="UTF-8"` is `utf-8`); a header too malformed to read counts as a foreign charset.
 */
function charsetOf(contentType: string): string | null {
  try {
    return new MIMEType(contentType).params.get('charset')?.toLowerCase() ?? null;
  } catch {
    return 'unreadable';
  }
}

// ignoreBOM keeps a byte order mark in the text, where JSON.parse refuses it as before.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function decode(request: FastifyRequest, body: Buffer): string {
  const charset = charsetOf(String(request.headers['content-type'] ?? ''));
  if (charset !== null && charset !== 'utf-8' && charset !== 'utf8') {
    throw new AppError(
      'unsupported_media_type',
      `Send the body as JSON in UTF-8 (got charset ${charset}); other charsets are not accepted`,
    );
  }
  try {
    return UTF8.decode(body);
  } catch {
    throw new AppError('invalid_json', 'The body is not valid UTF-8');
  }
}

function parse(text: string): unknown {
  if (text.trim() === '') return undefined;
  if (nestingOf(text) > MAX_DEPTH) {
    throw new AppError('validation_failed', `The body nests deeper than ${MAX_DEPTH} levels`, [
      { path: '/body', message: `nests deeper than ${MAX_DEPTH} levels` },
    ]);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AppError('invalid_json', `The body is not valid JSON: ${(error as Error).message}`);
  }
}

export function registerJsonBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  const parseJson = (
    request: FastifyRequest,
    body: string | Buffer,
    done: (err: Error | null, body?: unknown) => void,
  ) => {
    try {
      done(null, parse(decode(request, body as Buffer)));
    } catch (error) {
      done(error as Error, undefined);
    }
  };
  for (const type of ['application/json', /^application\/[\w.-]+\+json\s*(;|$)/]) {
    app.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, parseJson);
  }
}
