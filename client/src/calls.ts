// The types of the named calls, from the generated ones: what `cairn.<operationId>(init)` takes and
// what it answers, for every operation of the server (src/operations.ts lists them).
import type { ParamsOption, RequestBodyOption } from 'openapi-fetch';
import type { operations } from './openapi.ts';
import type { OPERATIONS } from './operations.ts';

/** The name of an operation: its operationId in the server's document (`upsertTask`, `searchTasks`, …). */
export type OperationId = keyof operations;
/** The HTTP method of an operation. */
export type MethodOf<K extends OperationId> = (typeof OPERATIONS)[K][0];

/** What every call takes beside the operation's own params and body. */
export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Sent as `If-Match`: the update or delete happens only if the resource still has this ETag (else 412). */
  ifMatch?: string | undefined;
  /** The POST's Idempotency-Key; by default the client makes one per call and keeps it across retries. */
  idempotencyKey?: string | undefined;
  /** Headers of this call alone. */
  headers?: Record<string, string> | undefined;
}

type OptionalKeys<T> = { [P in keyof T]-?: Record<never, never> extends Pick<T, P> ? P : never }[keyof T];
type RequiredKeys<T> = Exclude<keyof T, OptionalKeys<T>>;
/**
 * The optional members of T (each branch of a union) also take `undefined`, which is left out when
 * sent: `{ updatedSince: last?.toISOString() }` then type-checks in a project with
 * exactOptionalPropertyTypes too (`tsc --init`'s default since TypeScript 5.9).
 */
type Loose<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [P in keyof T]: P extends OptionalKeys<T> ? T[P] | undefined : T[P] }
    : T;
type LooseQuery<T> = T extends object ? { [P in keyof T]: P extends 'query' ? Loose<T[P]> : T[P] } : T;

/** What a call takes: the operation's `params` (`path`, `query`) and `body`, and CallOptions. */
export type Init<K extends OperationId> = {
  [P in keyof ParamsOption<operations[K]>]: LooseQuery<ParamsOption<operations[K]>[P]>;
} & {
  [P in keyof RequestBodyOption<operations[K]>]: Loose<RequestBodyOption<operations[K]>[P]>;
} & CallOptions;

/** The init argument, optional when the operation needs no params and no body. */
export type ArgsOf<T> = RequiredKeys<T> extends never ? [init?: T] : [init: T];

type SuccessStatus = 200 | 201 | 202 | 204;
type Content<R> = R extends { content: { 'application/json': infer T } } ? T : undefined;
/** What a call answers on success: the JSON of its 2xx response (undefined for 204). */
export type Answer<K extends OperationId> = operations[K] extends { responses: infer R }
  ? Content<R[keyof R & SuccessStatus]>
  : never;

/** A named call: `cairn.getTask({ params: { path: { id } } })` answers the task or throws a CairnError. */
export type Call<K extends OperationId> = (...init: ArgsOf<Init<K>>) => Promise<Answer<K>>;

/** The operations that read (GET). */
export type GetOperation = { [K in OperationId]: MethodOf<K> extends 'get' ? K : never }[OperationId];
/** The GETs that answer a page (`{data, nextCursor, hasMore}`): every list and search. */
export type PagedOperation = {
  [K in GetOperation]: Answer<K> extends { data: unknown[]; nextCursor: unknown } ? K : never;
}[GetOperation];
/** One item of a paged operation's pages. */
export type Item<K extends PagedOperation> = Answer<K> extends { data: (infer T)[] } ? T : never;
