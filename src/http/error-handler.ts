// The one place where failures become responses: RFC 9457 problem+json with a stable code
// (docs/decisions.md §6). Fastify's own errors (validation, bad JSON, body limits, media types, unknown
// routes) are mapped to the same codes; anything unexpected is logged with its stack and answered as a
// bare 500.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { constraintOf, isConstraintViolation, isUnavailable, unavailableCause } from '../db/errors.ts';
import { problems, unavailable } from '../metrics/metrics.ts';
import { AppError, ERROR_TITLES, type ErrorCode, type FieldError } from './errors.ts';
import { type AjvError, fieldErrors } from './validation.ts';

function validationErrors(error: FastifyError, request: FastifyRequest): FieldError[] {
  const context = (error.validationContext ?? 'body') as string;
  return fieldErrors(
    (error.validation ?? []) as AjvError[],
    `/${context === 'querystring' ? 'query' : context}`,
    context === 'body' ? request.body : undefined,
  );
}

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'validation_failed',
  FST_ERR_CTP_INVALID_TYPE: 'unsupported_media_type',
};

/** What a 503 tells clients to wait: the pool's connect timeout is 5 s, a restart takes a few. */
export const RETRY_AFTER_SECONDS = 5;

function toAppError(error: FastifyError, request: FastifyRequest): AppError | null {
  if (error instanceof AppError) return error.at('/body');
  // Services check uniqueness and references first, under locks; a constraint that still refuses a
  // write lost a race the locks do not cover. Logged, so that such a gap shows (db/errors.ts).
  if (isConstraintViolation(error)) {
    request.log.warn({ constraint: constraintOf(error) }, 'constraint violation answered 409');
    return new AppError('conflict', 'Another request changed the same thing at the same time; retry');
  }
  if (isUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    unavailable.inc({ cause: unavailableCause(error) });
    return new AppError(
      'unavailable',
      'The database is not answering; nothing was changed, retry shortly',
      undefined,
      {
        'retry-after': String(RETRY_AFTER_SECONDS),
      },
    );
  }
  if (error.validation) {
    const errors = validationErrors(error, request);
    const first = errors[0];
    return new AppError(
      'validation_failed',
      first ? `${first.path} ${first.message}` : 'Invalid request',
      errors,
    );
  }
  const mapped = error.code ? FASTIFY_CODES[error.code] : undefined;
  if (mapped === 'unsupported_media_type') {
    const given = request.headers['content-type'];
    return new AppError(
      mapped,
      `Send the body as JSON with Content-Type: application/json (${given ? `got ${given}` : 'none was sent'})`,
    );
  }
  if (mapped) return new AppError(mapped, error.message);
  if (error.statusCode === 429) return new AppError('rate_limited', error.message);
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError('validation_failed', error.message);
  }
  return null;
}

export function sendProblem(reply: FastifyReply, request: FastifyRequest, error: AppError): FastifyReply {
  problems.inc({ code: error.code });
  for (const [name, value] of Object.entries(error.headers ?? {})) reply.header(name, value);
  return reply
    .code(error.status)
    .type('application/problem+json')
    .send({
      type: `urn:cairn:problem:${error.code}`,
      title: ERROR_TITLES[error.code],
      status: error.status,
      detail: error.message,
      code: error.code,
      ...(error.errors ? { errors: error.errors } : {}),
      requestId: String(request.id),
    });
}

/** Whether a POST body takes an `id`: a create-or-update (schemas.ts UpsertBody, or an optional id). */
function takesId(body: unknown): boolean {
  type Shape = { properties?: Record<string, unknown>; anyOf?: Shape[] };
  const shape = body as Shape | undefined;
  if (!shape || typeof shape !== 'object') return false;
  return (
    Boolean(shape.properties?.id) || (shape.anyOf ?? []).some((branch) => Boolean(branch?.properties?.id))
  );
}

export function registerErrorHandling(app: FastifyInstance): void {
  // A second router that only knows which paths exist, to tell 405 from 404; a third, the collections
  // whose POST creates or updates (an `id` in the body), to point a PATCH or PUT there.
  const known = FindMyWay({ ignoreTrailingSlash: true });
  const upserts = FindMyWay({ ignoreTrailingSlash: true });
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || known.hasRoute(method as HTTPMethod, route.url)) continue;
      known.on(method as HTTPMethod, route.url, () => {});
      if (method === 'POST' && takesId(route.schema?.body)) upserts.on('POST', route.url, () => {});
    }
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error, request);
    if (appError) return sendProblem(reply, request, appError);
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(reply, request, new AppError('internal', 'Something went wrong on our side'));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).filter(
      (m) => m !== request.method && known.find(m, path) !== null,
    );
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      const hint = readerHint(known, request.method, path) || changeHint(upserts, request.method, path);
      return sendProblem(
        reply,
        request,
        new AppError(
          'method_not_allowed',
          `${request.method} is not allowed here; use ${allowed.join(', ')}${hint}`,
        ),
      );
    }
    return sendProblem(reply, request, new AppError('not_found', `No route for ${request.method} ${path}`));
  });
}

type Router = ReturnType<typeof FindMyWay>;

/** A GET on a POST-only collection (/v1/tasks) most likely wanted to read it: say where. */
function readerHint(known: Router, method: string, path: string): string {
  if (method !== 'GET') return '';
  const reader = ['search', 'list']
    .map((leaf) => `${path.replace(/\/$/, '')}/${leaf}`)
    .find((p) => {
      const route = known.find('GET', p);
      return route !== null && Object.keys(route.params).length === 0;
    });
  return reader ? `. To list or find these, use GET ${reader}` : '';
}

/**
 * A PATCH or PUT wanted to change something: Cairn changes a resource by POSTing it, with its id, to
 * its collection (docs/decisions.md §4, create-or-update). Say so, on the collection and on an item.
 */
function changeHint(upserts: Router, method: string, path: string): string {
  if (method !== 'PATCH' && method !== 'PUT') return '';
  const here = path.replace(/\/+$/, '');
  if (upserts.find('POST', here) !== null) {
    return `. To create or update, POST here; with "id" in the body it updates that one`;
  }
  const collection = here.replace(/\/[^/]*$/, '');
  if (collection !== '' && upserts.find('POST', collection) !== null) {
    return `. To change it, POST ${collection} with its "id" and the fields to change in the body`;
  }
  return '';
}
