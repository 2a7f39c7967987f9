// One error class for every failure a call can meet. A problem+json answer (RFC 9457) gives the server's
// stable `code`; anything else still gives a CairnError with the HTTP status: a proxy's HTML 502 is
// `unexpected_response`, no answer at all is `network_error` or `timeout` (status 0).

/** A field the server refused: a JSON Pointer into the request (`/body/name`) and what is wrong. */
export interface FieldError {
  path: string;
  message: string;
}

/**
 * The server's codes (docs/api.md, "Errors"), and the client's own for failures without a problem body.
 * Matching on a code not listed still compiles: a newer server may send new ones.
 */
export type ErrorCode =
  | 'validation_failed'
  | 'invalid_json'
  | 'invalid_cursor'
  | 'cursor_expired'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'not_deleted'
  | 'not_archived'
  | 'deleted'
  | 'conflict'
  | 'precondition_failed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'idempotency_key_reused'
  | 'rate_limited'
  | 'internal'
  | 'unavailable'
  | 'unexpected_response'
  | 'network_error'
  | 'timeout'
  | (string & {});

export class CairnError extends Error {
  override readonly name = 'CairnError';
  /** The problem's `code`, or the client's own (`unexpected_response`, `network_error`, `timeout`). */
  readonly code: ErrorCode;
  /** The HTTP status; 0 when no answer came. */
  readonly status: number;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  /** The fields refused, for `validation_failed`; empty otherwise. */
  readonly errors: FieldError[];
  /** The server's request id (problem `requestId`, or the `X-Request-Id` header): quote it in a report. */
  readonly requestId: string | undefined;
  /** Seconds the server asked to wait (`Retry-After`), on a 429 or 503 the client gave up retrying. */
  readonly retryAfter: number | undefined;

  constructor(init: {
    code: ErrorCode;
    status: number;
    title?: string | undefined;
    detail?: string | undefined;
    errors?: FieldError[] | undefined;
    requestId?: string | undefined;
    retryAfter?: number | undefined;
    cause?: unknown;
  }) {
    super(
      init.detail ?? init.title ?? init.code,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    this.code = init.code;
    this.status = init.status;
    this.title = init.title;
    this.detail = init.detail;
    this.errors = init.errors ?? [];
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
  }
}

/** True when `e` is a CairnError (with this code, when given): `if (isCairnError(e, 'not_found'))`. */
export function isCairnError(e: unknown, code?: ErrorCode): e is CairnError {
  return e instanceof CairnError && (code === undefined || e.code === code);
}

function isProblem(body: unknown): body is Record<string, unknown> & { code: string } {
  return typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string';
}

function fieldErrors(value: unknown): FieldError[] {
  if (!Array.isArray(value)) return [];
  return value.filter((e): e is FieldError => typeof e?.path === 'string' && typeof e?.message === 'string');
}

/** The CairnError of a failed answer; `body` is what openapi-fetch parsed (JSON, or the text). */
export function errorOfResponse(response: Response, body: unknown): CairnError {
  const requestId = response.headers.get('x-request-id') ?? undefined;
  const retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
  if (isProblem(body)) {
    const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
    return new CairnError({
      code: body.code,
      status: response.status,
      title: str(body.title),
      detail: str(body.detail),
      errors: fieldErrors(body.errors),
      requestId: str(body.requestId) ?? requestId,
      retryAfter,
    });
  }
  // Not the server's problem+json: a proxy, a load balancer, or something that is not Cairn at baseUrl.
  const text = typeof body === 'string' ? body.trim().slice(0, 200) : '';
  return new CairnError({
    code: 'unexpected_response',
    status: response.status,
    title: response.statusText || undefined,
    detail: `HTTP ${response.status} without a problem+json body${text ? `: ${text}` : ''}`,
    requestId,
    retryAfter,
  });
}

/** Retry-After as seconds from now (RFC 9110 §10.2.3: delay-seconds or an HTTP date). */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}
