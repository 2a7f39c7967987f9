// @cairn/client: the browser-safe entry (fetch only). Webhook verification is `@cairn/client/webhooks`.
export type {
  Answer,
  Call,
  CallOptions,
  GetOperation,
  Init,
  Item,
  MethodOf,
  OperationId,
  PagedOperation,
} from './calls.ts';
export {
  type CairnClient,
  type ClientOptions,
  createClient,
  type Fresh,
  type NotModified,
  type PageInit,
  type PaginateOptions,
} from './client.ts';
export { CairnError, type ErrorCode, type FieldError, isCairnError } from './errors.ts';
export {
  type CairnEvent,
  type EventType,
  type FeedPage,
  FeedPositionExpired,
  latestPosition,
  type SyncOptions,
  syncEvents,
} from './feed.ts';
export type { components, operations, paths } from './openapi.ts';
export { OPERATIONS, type OperationMethods } from './operations.ts';
export type { RetryOptions } from './retry.ts';

/** A resource's shape as the server answers it: `Schema<'Task'>`. */
export type Schema<Name extends keyof import('./openapi.ts').components['schemas']> =
  import('./openapi.ts').components['schemas'][Name];
