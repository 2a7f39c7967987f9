// The one error type. Every failure a client can see carries a stable snake_case `code`
// (docs/decisions.md §6); the HTTP status follows from the code, and clients match on the code, never on
// the message text.

export const ERROR_STATUS = {
  validation_failed: 400,
  invalid_json: 400,
  invalid_cursor: 400,
  cursor_expired: 400,
  invalid_token: 400,
  unauthenticated: 401,
  invalid_credentials: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  not_deleted: 409,
  not_archived: 409,
  deleted: 409,
  conflict: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_TITLES: Record<ErrorCode, string> = {
  validation_failed: 'Validation failed',
  invalid_json: 'Invalid JSON',
  invalid_cursor: 'Invalid cursor',
  cursor_expired: 'Cursor expired',
  invalid_token: 'Invalid token',
  unauthenticated: 'Unauthenticated',
  invalid_credentials: 'Invalid credentials',
  forbidden: 'Forbidden',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  not_deleted: 'Not deleted',
  not_archived: 'Not archived',
  deleted: 'Deleted',
  conflict: 'Conflict',
  precondition_failed: 'Precondition failed',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  idempotency_key_reused: 'Idempotency key reused',
  rate_limited: 'Rate limited',
  internal: 'Internal error',
  unavailable: 'Service unavailable',
};

export interface FieldError {
  /**
   * Where the problem is. In an error a service throws, a field of the submitted object as a JSON
   * Pointer without its leading slash (`projectId`, `members/0/id`); the HTTP layer leads it with the
   * request part (`/body/projectId`), a batch with the entry (`/projectId`). In errors of the HTTP
   * layer itself, the whole pointer: `/query/limit`, `/params/id`.
   */
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string> | undefined;
  /** True when `errors` name fields of the submitted object (see FieldError.path). */
  readonly ofFields: boolean;

  constructor(
    code: ErrorCode,
    detail: string,
    errors?: FieldError[],
    headers?: Record<string, string>,
    ofFields = false,
  ) {
    super(detail);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.errors = errors;
    this.headers = headers;
    this.ofFields = ofFields;
  }

  /** This error with its field paths led by `prefix` (`/body`, or `` for a batch entry). */
  at(prefix: string): AppError {
    if (!this.ofFields || !this.errors) return this;
    const errors = this.errors.map((e) => ({ path: `${prefix}/${e.path}`, message: e.message }));
    const first = errors[0]!;
    return new AppError(this.code, `${first.path}: ${first.message}`, errors, this.headers);
  }
}

export function notFound(what: string): AppError {
  return new AppError('not_found', `${what} not found`);
}

export function forbidden(detail: string): AppError {
  return new AppError('forbidden', detail);
}

/** A service's 400: a field of the submitted object (`projectId`, `labelIds/2`) and what is wrong with it. */
export function invalid(field: string, message: string): AppError {
  return new AppError(
    'validation_failed',
    `${field}: ${message}`,
    [{ path: field, message }],
    undefined,
    true,
  );
}

/** The HTTP layer's 400, at a whole pointer into the request (`/query/offset`). */
export function invalidRequest(path: string, message: string): AppError {
  return new AppError('validation_failed', `${path}: ${message}`, [{ path, message }]);
}

export function conflict(detail: string): AppError {
  return new AppError('conflict', detail);
}
