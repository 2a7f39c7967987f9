// What a failure says to a person: the API's problem+json `detail` first, the field errors by field.
import { CairnError, isCairnError } from '@cairn/client';

export interface Problem {
  /** The API's problem `detail`, or what went wrong when no answer came. */
  detail: string;
  code: string;
  status: number;
  /** Refused body fields by name (`password`), with the API's message. */
  fields: Record<string, string>;
  requestId: string | undefined;
}

/** What a failure says to a person: the problem+json `detail` first, the field errors by field. */
export function problemOf(error: unknown): Problem {
  if (error instanceof CairnError) {
    const fields: Record<string, string> = {};
    for (const field of error.errors) {
      const name = /^\/body\/([^/]+)/.exec(field.path)?.[1];
      if (name && !(name in fields)) fields[name] = field.message;
    }
    return {
      detail: error.detail ?? noAnswer(error.code) ?? error.title ?? error.message,
      code: error.code,
      status: error.status,
      fields,
      requestId: error.requestId,
    };
  }
  const detail = error instanceof Error ? error.message : String(error);
  return { detail, code: 'internal', status: 0, fields: {}, requestId: undefined };
}

function noAnswer(code: string): string | undefined {
  if (code === 'network_error') return 'Cairn cannot be reached. Check the connection and try again.';
  if (code === 'timeout') return 'Cairn took too long to answer. Try again.';
  return undefined;
}

export function isUnauthenticated(error: unknown): boolean {
  return isCairnError(error, 'unauthenticated');
}
