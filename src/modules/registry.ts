// The registry of resources: each module declares itself once in its resource.ts (resource.ts says
// what), and a new resource is an import and an entry here. The application's routes, the event
// renderer, the event types, the transfer's tables, the rate limiter's text-search fields and the
// guard tests (isolation.test.ts, modules/visibility.test.ts) all read this list, so none of them
// keeps a list of its own.
//
// The order is the order the API lists event types in (GET /v1/webhooks/events, the OpenAPI enums).
import { DOCUMENT } from './documents/resource.ts';
import { AREA, TEAM } from './groups/resource.ts';
import { POST } from './posts/resource.ts';
import { PROJECT_TEMPLATE } from './project-templates/resource.ts';
import { PROJECT } from './projects/resource.ts';
import { TASK_TEMPLATE } from './task-templates/resource.ts';
import { TASK } from './tasks/resource.ts';
import { USER } from './users/resource.ts';

export const RESOURCES = [
  TASK,
  PROJECT,
  DOCUMENT,
  POST,
  TEAM,
  AREA,
  TASK_TEMPLATE,
  PROJECT_TEMPLATE,
  USER,
] as const;

export type Kind = (typeof RESOURCES)[number]['kind'];

/** Every event type, literal: outbox.ts takes its type from here (as a type only, so no cycle). */
export type EventType = (typeof RESOURCES)[number]['events'][number];

export const EVENT_TYPES: readonly EventType[] = RESOURCES.flatMap((r): readonly EventType[] => r.events);
