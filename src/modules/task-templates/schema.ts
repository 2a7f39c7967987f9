import { type Static, Type } from 'typebox';
import { DateInput, DescriptionInput, DescriptionOut } from '../../http/common.ts';
import {
  ExpandQuery,
  Flag,
  LimitQuery,
  Name,
  Nullable,
  NullableTimestamp,
  Stage,
  StringEnum,
  Timestamp,
  UpsertBody,
  UpsertId,
  Uuid,
  Visibility,
} from '../../http/schemas.ts';
import { DATE_DIRECTIONS, DATE_EVENTS, DATE_UNITS } from '../../text/relative-dates.ts';

/** A template's calendar date (docs/decisions.md §4): YYYY-MM-DD. */
export const CalendarDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', examples: ['2026-12-01'] });
export const DateUnit = StringEnum(DATE_UNITS);
export const DateDirection = StringEnum(DATE_DIRECTIONS);
export const DateEvent = StringEnum(DATE_EVENTS);
export const RelativeCount = Type.Integer({ minimum: 0, maximum: 1000 });
export const AreaRef = Type.Object({ id: Uuid, name: Type.String(), publicId: Type.String() });

const SCOPE_TYPES = ['area', 'project_template'] as const;

export const TaskTemplateUpsertBody = UpsertBody(
  {
    name: Name,
    areaId: Type.Unsafe<string>({
      ...Uuid,
      description: "Required on create unless scopeType is project_template (then that template's area)",
    }),
    description: Nullable(DescriptionInput),
    priority: Type.Boolean(),
    visibility: Visibility,
    statusId: Nullable(Uuid),
    statusStage: Nullable(Stage),
    assignedToId: Nullable(Uuid),
    projectId: Nullable(Uuid),
    labelIds: Type.Array(Uuid, { maxItems: 50 }),
    scopeType: StringEnum(SCOPE_TYPES),
    scopeId: Nullable(Uuid),
    parentTaskTemplateId: Nullable(Uuid),
    dueDate: Nullable(CalendarDate),
    startDate: Nullable(CalendarDate),
    relativeDateCount: Nullable(RelativeCount),
    relativeDateUnit: Nullable(DateUnit),
    relativeDateDirection: Nullable(DateDirection),
    relativeDateEventType: Nullable(DateEvent),
  },
  ['name'],
  {
    id: UpsertId,
    examples: [
      {
        name: 'Write the launch post',
        areaId: '3f0e8c1a-6b7d-4d2e-9a51-2c4b8e7f9d10',
        relativeDateCount: 2,
        relativeDateUnit: 'days',
        relativeDateDirection: 'before',
        relativeDateEventType: 'project_due',
      },
    ],
  },
);
export type TaskTemplateUpsertBody = Static<typeof TaskTemplateUpsertBody>;

export const TaskTemplate = Type.Object(
  {
    id: Uuid,
    publicId: Type.String(),
    name: Type.String(),
    description: DescriptionOut,
    priority: Type.Boolean(),
    visibility: Visibility,
    statusId: Nullable(Uuid),
    statusStage: Nullable(Stage),
    assignedToId: Nullable(Uuid),
    projectId: Nullable(Uuid),
    areaId: Uuid,
    workspaceId: Uuid,
    scopeType: StringEnum(SCOPE_TYPES),
    scopeId: Nullable(Uuid),
    parentTaskTemplateId: Nullable(Uuid),
    dueDate: Nullable(Type.String()),
    startDate: Nullable(Type.String()),
    relativeDateCount: Nullable(Type.Integer()),
    relativeDateUnit: Nullable(DateUnit),
    relativeDateDirection: Nullable(DateDirection),
    relativeDateEventType: Nullable(DateEvent),
    createdById: Uuid,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: NullableTimestamp,
    labels: Type.Array(Type.Object({ id: Uuid, name: Type.String(), color: Type.String() })),
    area: AreaRef,
  },
  { $id: 'TaskTemplate' },
);
export type TaskTemplate = Static<typeof TaskTemplate>;

export const TaskTemplateListQuery = Type.Object({
  areaId: Type.Optional(Uuid),
  scopeId: Type.Optional(Uuid),
  projectId: Type.Optional(Uuid),
  includeDeleted: Flag('Include soft-deleted templates'),
  includeMarkdown: Flag('Add description.markdown'),
  limit: LimitQuery,
});
export type TaskTemplateListQuery = Static<typeof TaskTemplateListQuery>;

/** GET by id: the description's markdown on request, as a task's. */
export const TemplateGetQuery = Type.Object({
  includeMarkdown: Flag('Add description.markdown'),
});
export type TemplateGetQuery = Static<typeof TemplateGetQuery>;

/** The expansions of a task made from a template (the interface's "Task from template" row). */
export const TEMPLATE_TASK_EXPANSIONS = ['status', 'area', 'project', 'assignee'] as const;

export const CreateTaskQuery = Type.Object({
  ...ExpandQuery(TEMPLATE_TASK_EXPANSIONS),
  includeMarkdown: Flag('Add description.markdown'),
});
export type CreateTaskQuery = Static<typeof CreateTaskQuery>;

export const CreateTaskBody = Type.Object(
  {
    name: Type.Optional(Name),
    projectId: Type.Optional(Nullable(Uuid)),
    assignedToId: Type.Optional(Nullable(Uuid)),
    dueDate: Type.Optional(Nullable(DateInput)),
    statusId: Type.Optional(Uuid),
    description: Type.Optional(Nullable(DescriptionInput)),
  },
  {
    additionalProperties: false,
    description: "Overrides of the template's values; an empty body takes them all from the template",
    examples: [{}, { name: 'Onboard Dana', assignedToId: '3f0e8c1a-6b7d-4d2e-9a51-2c4b8e7f9d10' }],
  },
);
export type CreateTaskBody = Static<typeof CreateTaskBody>;

/**
 * The answer's header naming the child (or scoped) templates a create-task or create-project skipped
 * because their area is archived, comma-separated; absent when none was (docs/templates.md).
 */
export const SKIPPED_HEADER = 'skipped-task-templates';

/** A 201 of `ref` with the skipped-templates header, for the document. */
export function madeFromTemplate(ref: string) {
  return Type.Ref(ref, {
    headers: {
      'Skipped-Task-Templates': {
        type: 'string',
        description:
          'Ids of child or scoped task templates skipped because their area is archived, comma-separated; absent when none was',
      },
    },
  });
}
