import { type Static, Type } from 'typebox';
import { DateInput, DescriptionInput, DescriptionOut } from '../../http/common.ts';
import {
  Color,
  Flag,
  Icon,
  LimitQuery,
  Name,
  Nullable,
  NullableTimestamp,
  PresentationQuery,
  Timestamp,
  UpsertBody,
  UpsertId,
  Uuid,
} from '../../http/schemas.ts';
import {
  AreaRef,
  CalendarDate,
  DateDirection,
  DateEvent,
  DateUnit,
  RelativeCount,
} from '../task-templates/schema.ts';

export const ProjectTemplateUpsertBody = UpsertBody(
  {
    name: Name,
    description: Nullable(DescriptionInput),
    color: Nullable(Color),
    icon: Nullable(Icon),
    ownedByAreaId: Type.Unsafe<string>({
      ...Uuid,
      description: 'Required on create: the area its projects go in',
    }),
    areaIds: Type.Array(Uuid, { maxItems: 50, description: 'Other areas the template is offered in' }),
    ownerId: Nullable(Uuid),
    dueDate: Nullable(CalendarDate),
    startDate: Nullable(CalendarDate),
    relativeDueDateCount: Nullable(RelativeCount),
    relativeDueDateUnit: Nullable(DateUnit),
    relativeDueDateDirection: Nullable(DateDirection),
    relativeDueDateEventType: Nullable(DateEvent),
    relativeStartDateCount: Nullable(RelativeCount),
    relativeStartDateUnit: Nullable(DateUnit),
    relativeStartDateDirection: Nullable(DateDirection),
    relativeStartDateEventType: Nullable(DateEvent),
  },
  ['name'],
  {
    id: UpsertId,
    examples: [
      {
        name: 'Product launch',
        ownedByAreaId: '3f0e8c1a-6b7d-4d2e-9a51-2c4b8e7f9d10',
        relativeDueDateCount: 6,
        relativeDueDateUnit: 'weeks',
        relativeDueDateDirection: 'after',
        relativeDueDateEventType: 'project_created',
      },
    ],
  },
);
export type ProjectTemplateUpsertBody = Static<typeof ProjectTemplateUpsertBody>;

export const ProjectTemplate = Type.Object(
  {
    id: Uuid,
    publicId: Type.String(),
    name: Type.String(),
    description: DescriptionOut,
    color: Nullable(Type.String()),
    icon: Nullable(Type.String()),
    workspaceId: Uuid,
    ownedByAreaId: Uuid,
    ownerId: Nullable(Uuid),
    dueDate: Nullable(Type.String()),
    startDate: Nullable(Type.String()),
    relativeDueDateCount: Nullable(Type.Integer()),
    relativeDueDateUnit: Nullable(DateUnit),
    relativeDueDateDirection: Nullable(DateDirection),
    relativeDueDateEventType: Nullable(DateEvent),
    relativeStartDateCount: Nullable(Type.Integer()),
    relativeStartDateUnit: Nullable(DateUnit),
    relativeStartDateDirection: Nullable(DateDirection),
    relativeStartDateEventType: Nullable(DateEvent),
    createdById: Uuid,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: NullableTimestamp,
    deletedById: Nullable(Uuid),
    ownedByArea: AreaRef,
    areas: Type.Array(AreaRef),
    areaIds: Type.Array(Uuid),
  },
  { $id: 'ProjectTemplate' },
);
export type ProjectTemplate = Static<typeof ProjectTemplate>;

export const ProjectTemplateListQuery = Type.Object({
  areaId: Type.Optional(
    Type.Unsafe<string>({
      ...Uuid,
      description: 'Templates offered in this area (owned by it, or listing it)',
    }),
  ),
  ownedByAreaId: Type.Optional(Uuid),
  includeDeleted: Flag('Include soft-deleted templates'),
  includeMarkdown: Flag('Add description.markdown'),
  limit: LimitQuery,
});
export type ProjectTemplateListQuery = Static<typeof ProjectTemplateListQuery>;

/** GET by id: the description's markdown on request, as a task's. */
export const TemplateGetQuery = Type.Object({
  includeMarkdown: Flag('Add description.markdown'),
});
export type TemplateGetQuery = Static<typeof TemplateGetQuery>;

/** The expansions of a project made from a template (the interface's "Project from template" row). */
export const TEMPLATE_PROJECT_EXPANSIONS = ['owner', 'status', 'area'] as const;

export const CreateProjectQuery = Type.Object(PresentationQuery(TEMPLATE_PROJECT_EXPANSIONS));
export type CreateProjectQuery = Static<typeof CreateProjectQuery>;

export const CreateProjectBody = Type.Object(
  {
    name: Type.Optional(Name),
    ownerId: Type.Optional(Nullable(Uuid)),
    startDate: Type.Optional(Nullable(DateInput)),
    dueDate: Type.Optional(Nullable(DateInput)),
  },
  {
    additionalProperties: false,
    description: "Overrides of the template's values; an empty body takes them all from the template",
    examples: [{}, { name: 'Launch v3', startDate: '2027-01-04' }],
  },
);
export type CreateProjectBody = Static<typeof CreateProjectBody>;
