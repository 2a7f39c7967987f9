// What every /v1 route gets without saying so, in one place: unknown query parameters are 400 (an
// empty strict query schema for routes without one), `expand` and flags are normalized before they
// are validated, a 201 says where to read what it made (Location), and the route's schema declares
// 405 (and 413 and 415 for routes with a body, and 412 for writes that take If-Match) as
// problem+json. The document's description explains the conventions for /docs and generated
// clients; http/document.ts adds what follows from each operation's shape.
import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import { AppError } from './errors.ts';
import { normalizeQuery } from './query.ts';
import { problemResponse } from './schemas.ts';
import { unstorableString } from './validation.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: the route refuses If-Match itself (a batch), so the document shows neither it nor 412. */
    ifMatch?: boolean;
    /** A 201's Location: the collection whose `/:id` reads what it made, when not the route's own URL. */
    location?: string;
  }
}

const STRICT_EMPTY_QUERY = { type: 'object', properties: {}, additionalProperties: false };

function takesIfMatch(method: string | string[]): boolean {
  return [method].flat().some((m) => m === 'POST' || m === 'DELETE');
}

function isApiRoute(url: string): boolean {
  return url.startsWith('/v1/') || url === '/healthz' || url === '/readyz';
}

export function registerConventions(app: FastifyInstance, publicUrl: string): void {
  // Collections whose `/:id` a GET reads: a 201 of a POST on one (or on the route's config.location)
  // answers Location, and the document declares it (http/document.ts).
  const readable = new Set<string>();
  app.addHook('onRoute', (route) => {
    if (!isApiRoute(route.url)) return;
    if ([route.method].flat().includes('GET') && route.url.endsWith('/:id'))
      readable.add(route.url.slice(0, -4));
    route.schema ??= {};
    const schema = route.schema as Record<string, unknown>;
    const query = schema.querystring as Record<string, unknown> | undefined;
    if (!query) schema.querystring = STRICT_EMPTY_QUERY;
    else if (query.additionalProperties === undefined) query.additionalProperties = false;
    // A copy: routes may share one response object (groups' `one`), and what one route adds is its own.
    const response = schema.response ? { ...(schema.response as Record<string, TSchema>) } : undefined;
    if (response && route.url.startsWith('/v1/')) {
      schema.response = response;
      response[405] ??= problemResponse(405);
      if (schema.body) {
        response[413] ??= problemResponse(413);
        response[415] ??= problemResponse(415);
      }
      // Every write takes If-Match (preconditions.ts) but a route that says it does not (a batch).
      if (takesIfMatch(route.method) && route.config?.ifMatch !== false)
        response[412] ??= problemResponse(412);
    }
  });
  app.addHook('preSerialization', async (request, reply, payload) => {
    if (reply.statusCode !== 201) return payload;
    const id = (payload as { id?: unknown } | null)?.id;
    const collection = request.routeOptions.config.location ?? request.routeOptions.url;
    if (typeof id === 'string' && collection && readable.has(collection))
      reply.header('location', `${publicUrl}${collection}/${id}`);
    return payload;
  });
  app.addHook('preValidation', async (request) => {
    if (!isApiRoute(request.routeOptions.url ?? '')) return;
    if (request.query && typeof request.query === 'object')
      normalizeQuery(request.query as Record<string, unknown>);
    const config = request.routeOptions.config as { entries?: string; optionalBody?: boolean };
    // A body whose fields are all optional overrides (create-task, create-project) may be left out.
    if (config.optionalBody && request.body === undefined) request.body = {};
    // Strings a database cannot store are refused before anything reads them, path ids included. A
    // batch's entries are checked one by one instead (its route names them in config.entries), so a
    // bad entry fails alone.
    const entries = config.entries;
    const body =
      entries && request.body && typeof request.body === 'object'
        ? { ...(request.body as object), [entries]: [] }
        : request.body;
    const bad =
      unstorableString(request.params, '/params') ??
      unstorableString(request.query, '/query') ??
      unstorableString(body, '/body');
    if (bad) throw new AppError('validation_failed', `${bad.path} ${bad.message}`, [bad]);
  });
}

export const API_DESCRIPTION = `Work management for a workspace: tasks, projects, documents, posts, teams and areas.

## Authentication
Every \`/v1\` request sends an API token: \`Authorization: Bearer <token>\`. A missing or wrong token is
\`401\` with \`WWW-Authenticate: Bearer\`. Tokens belong to a user of one workspace and see that workspace
only; something you may not see is \`404\`, something you see but may not change is \`403\`.
People in a browser sign in instead (\`POST /v1/auth/sign-in\`): the \`cairn_session\` cookie it sets
stands for them on every route, with the same permissions. When both are sent the bearer token wins.
A request with the cookie that changes something must come from Cairn's own origin (\`Origin\`, or
\`Sec-Fetch-Site: same-origin\`), otherwise \`403\`.

## Requests
Bodies are JSON in UTF-8 (\`Content-Type: application/json\`; anything else, or another \`charset\`, is
\`415\`; bytes that are not UTF-8 are \`400 invalid_json\`), at most 2 MiB (\`413\`).
Unknown body fields and unknown query parameters are \`400\`. \`POST\` on a collection creates (\`201\`),
or updates when the body has an \`id\` (\`200\`): fields present replace, \`null\` clears, absent fields
stay. Path ids take the UUID or the publicId. Times are ISO 8601 UTC with milliseconds; inputs take
any offset, or epoch milliseconds.

## Retries, caching and concurrency
Send \`Idempotency-Key\` (1–255 visible ASCII characters) with a \`POST\` to make retries safe: the same
key, token and body within 24 hours answer with the first status, body and \`ETag\`
(\`Idempotent-Replayed: true\`) and do nothing again; another body with the key is
\`422 idempotency_key_reused\`, and the key while the first request still runs is \`409 conflict\`.
A single resource's answer carries an \`ETag\`; \`If-None-Match\` on \`GET\` answers \`304\` while
nothing in it changed, and \`If-Match\` on a write or \`DELETE\` is \`412 precondition_failed\` (nothing
changed) when the resource changed since, and always on a create (a new resource has no version to
match); a reaction's names its post, and operations that can only make something new do not list
it. A \`201\` carries \`Location\` where a \`GET\` reads what it made. Each token may make \`RateLimit-Limit\` requests a minute
(\`RateLimit-Remaining\`, \`RateLimit-Reset\` on every answer); beyond it, \`429 rate_limited\` with
\`Retry-After\`. Text searches (a \`/search\` given text to match) count against a lower budget of
their own. \`503 unavailable\` with \`Retry-After\` means the database could not answer in time and
nothing was changed: retry later.

## Errors
Every error is RFC 9457 problem details (\`application/problem+json\`):
\`{type, title, status, detail, code, errors?, requestId}\`. Match on \`code\`, a stable snake_case
string; \`errors\` lists \`{path, message}\` with a JSON Pointer into the request
(\`/body/name\`, \`/query/limit\`).

## Pagination
Lists and searches answer \`{data, nextCursor, hasMore, total}\`. Pass \`nextCursor\` back as \`cursor\`
for the next page; a cursor is bound to the query that made it (another query's cursor is
\`400 invalid_cursor\`). \`limit\` is 1–100, default 50. Walking every page returns each item that
existed when the walk began exactly once, while others write.
\`total\` comes with \`totalRelation\`: \`eq\` when it is the number of matches, \`gte\` when a search
with text stopped counting at 1,000 (\`total\` is then 1000; the pages still hold every match).
Searches with filters only, and lists with \`includeTotal\`, count exactly.

## Expansions and flags
\`expand\` is \`all\` (the default), \`none\`, or field names, comma-separated or repeated
(\`expand=team,project\`, \`expand[]=team\`); an expansion you do not ask for is absent, so the
resources type expansions as optional. What the default always returns is typed by
\`<Name>Expanded\` (\`TeamExpanded\`, \`TaskExpanded\`, …): read a default answer as that type. Flags
(\`includeDeleted\`, \`includeArchived\`, \`includeTotal\`, \`includeMarkdown\`) take true, false, 1 or 0
in any case, and a bare \`?includeDeleted\` is true.

## Search
Text is folded (case, accents, Unicode forms) and split into words; a field matches when every query
word is a prefix of one of its words. \`matchMode=all\` (default) needs every text field to match,
\`any\` at least one (rows matching all come first). Id filters always apply.`;
