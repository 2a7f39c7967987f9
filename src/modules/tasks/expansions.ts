// The SQL of a presented task (present.ts): its labels and asked-for expansions (status, team or area,
// project with its team ids, assignee) in one statement, for a page of rows already read or for one
// task read by id with them. A page's ids travel as one argument per column, so a statement's text
// depends only on the expansions asked for: each of the few texts is built and compiled once
// (db/prepared.ts), and PostgreSQL keeps each as a named statement (db/pg-statements.ts).
// Part of the tasks' repository: it reads the tables of statuses, groups, projects and users by id,
// as the presenter did through their modules, to save the round trips (docs/architecture.md).
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Dialect } from '../../db/index.ts';
import { preparedSql } from '../../db/prepared.ts';
import { groupBy } from '../../db/rows.ts';
import type { DB, TaskStage } from '../../db/types.ts';
import { TASK_COLUMNS, type TaskRow } from './repository.ts';

/** The expansions that read another table. */
export type Joined = 'status' | 'group' | 'project' | 'assignee';

/**
 * A task's labels and expansions. JSON columns are text on SQLite and parsed already on PostgreSQL
 * (whose aggregate of no rows is null). The columns of an expansion not asked for are absent.
 */
export interface ExpansionColumns {
  label_ids: string | string[] | null;
  s_id?: string;
  s_name?: string;
  s_stage?: TaskStage;
  s_color?: string;
  g_id?: string;
  g_name?: string;
  g_public_id?: string;
  p_id?: string | null;
  p_name?: string | null;
  p_teams?: string | string[] | null;
  u_id?: string | null;
  u_name?: string | null;
  u_email?: string | null;
}

/** A list that JSON columns hold, in either dialect's form. */
export function jsonList(value: string | string[] | null | undefined): string[] {
  if (value === null || value === undefined) return [];
  return typeof value === 'string' ? (JSON.parse(value) as string[]) : value;
}

/** The select list and joins of the labels and expansions of task t, in workspace `ws`. */
function joinedSql(dialect: Dialect, joined: readonly Joined[], ws: string) {
  const sqlite = dialect === 'sqlite';
  // Labels in their team's order; SQLite aggregates in the order of the subquery's rows.
  const labels = sqlite
    ? sql`(select json_group_array(x.label_id) from (select l.label_id from task_label_links l
        join task_labels tl on tl.workspace_id = l.workspace_id and tl.id = l.label_id
        where l.workspace_id = ${ws} and l.task_id = t.id order by tl.position) x)`
    : sql`(select json_agg(l.label_id order by tl.position) from task_label_links l
        join task_labels tl on tl.workspace_id = l.workspace_id and tl.id = l.label_id
        where l.workspace_id = ${ws} and l.task_id = t.id)`;
  const columns: RawBuilder<unknown>[] = [sql`${labels} as label_ids`];
  const joins: RawBuilder<unknown>[] = [];
  if (joined.includes('status')) {
    columns.push(sql`s.id as s_id, s.name as s_name, s.stage as s_stage, s.color as s_color`);
    joins.push(sql`left join task_statuses s on s.workspace_id = ${ws} and s.id = t.status_id`);
  }
  if (joined.includes('group')) {
    columns.push(sql`g.id as g_id, g.name as g_name, g.public_id as g_public_id`);
    joins.push(sql`left join groups g on g.workspace_id = ${ws} and g.id = t.group_id`);
  }
  if (joined.includes('project')) {
    // The project's teams decide whether the caller sees it (projects/visibility.ts), in present.ts.
    const teams = sqlite
      ? sql`(select json_group_array(pt.group_id) from project_teams pt
          where pt.workspace_id = ${ws} and pt.project_id = p.id)`
      : sql`(select json_agg(pt.group_id) from project_teams pt
          where pt.workspace_id = ${ws} and pt.project_id = p.id)`;
    columns.push(sql`p.id as p_id, p.name as p_name, ${teams} as p_teams`);
    joins.push(sql`left join projects p on p.workspace_id = ${ws} and p.id = t.project_id`);
  }
  if (joined.includes('assignee')) {
    columns.push(sql`u.id as u_id, u.name as u_name, u.email as u_email`);
    joins.push(sql`left join users u on u.workspace_id = ${ws} and u.id = t.assigned_to_id`);
  }
  return { columns: sql.join(columns), joins: joins.length > 0 ? sql.join(joins, sql` `) : sql`` };
}

/**
 * A page's labels and expansions as rows of one statement, each what one part reads (`k`): a label
 * of a task (`l`: task, label, position), a status (`s`), a group (`g`), a project (`p`), a team of a
 * project (`t`: project, team) or a user (`u`). Each part reads the distinct ids of its column once,
 * given as a JSON array, so a page of fifty tasks in one team reads its team once, not fifty times.
 */
interface PartRow {
  k: 'l' | 's' | 'g' | 'p' | 't' | 'u';
  a: string;
  b: string;
  c: string | null;
  d: string | null;
}

/**
 * Rows of `table` (`alias`) of the workspace whose `column` is one of `ids` (idList): on SQLite a
 * join from the JSON array, on PostgreSQL `= any` of an array, which its generic plan (the statement
 * is named) answers with index lookups whatever its estimate of the list's length.
 */
function ofIds(dialect: Dialect, table: string, column: string, ws: string, ids: string) {
  const [name, alias] = table.split(' ') as [string, string];
  const t = sql.raw(`${name} ${alias}`);
  const col = sql.raw(`${alias}.${column}`);
  return dialect === 'sqlite'
    ? sql`json_each(${ids}) j join ${t} on ${sql.raw(alias)}.workspace_id = ${ws} and ${col} = j.value`
    : sql`${t} where ${sql.raw(alias)}.workspace_id = ${ws} and ${col} = any(${ids})`;
}

/** Ids as one argument of ofIds: a JSON array on SQLite, an array on PostgreSQL (pg writes its literal). */
function idList(dialect: Dialect, ids: Iterable<unknown>): string | string[] {
  const list = [...ids] as string[];
  return dialect === 'sqlite' ? JSON.stringify(list) : list;
}

function pageParts(dialect: Dialect, joined: readonly Joined[], ws: string, ids: readonly string[]) {
  const [tasks, statuses, groups, projects, users] = ids as [string, string, string, string, string];
  // The links with their labels (for the order): on PostgreSQL the join comes before the `where`.
  const links =
    dialect === 'sqlite'
      ? sql`json_each(${tasks}) j join task_label_links l on l.workspace_id = ${ws} and l.task_id = j.value
        join task_labels tl on tl.workspace_id = l.workspace_id and tl.id = l.label_id`
      : sql`task_label_links l join task_labels tl on tl.workspace_id = l.workspace_id and tl.id = l.label_id
        where l.workspace_id = ${ws} and l.task_id = any(${tasks})`;
  const parts = [
    sql`select 'l' as k, l.task_id as a, cast(l.label_id as text) as b, cast(tl.position as text) as c,
      cast(null as text) as d from ${links}`,
  ];
  if (joined.includes('status')) {
    parts.push(
      sql`select 's', s.id, s.name, s.stage, s.color from ${ofIds(dialect, 'task_statuses s', 'id', ws, statuses)}`,
    );
  }
  if (joined.includes('group')) {
    parts.push(
      sql`select 'g', g.id, g.name, g.public_id, null from ${ofIds(dialect, 'groups g', 'id', ws, groups)}`,
    );
  }
  if (joined.includes('project')) {
    parts.push(
      sql`select 'p', p.id, p.name, null, null from ${ofIds(dialect, 'projects p', 'id', ws, projects)}`,
    );
    parts.push(
      sql`select 't', pt.project_id, cast(pt.group_id as text), null, null
        from ${ofIds(dialect, 'project_teams pt', 'project_id', ws, projects)}`,
    );
  }
  if (joined.includes('assignee')) {
    parts.push(
      sql`select 'u', u.id, u.name, u.email, null from ${ofIds(dialect, 'users u', 'id', ws, users)}`,
    );
  }
  return sql<PartRow>`${sql.join(parts, sql` union all `)}`;
}

/** The distinct ids a page's expansions look up: its tasks, statuses, teams, projects and assignees. */
function idsOf(rows: readonly TaskRow[]): Set<string>[] {
  const tasks = new Set<string>();
  const statuses = new Set<string>();
  const groups = new Set<string>();
  const projects = new Set<string>();
  const users = new Set<string>();
  // One pass, each column by name: a column chosen by a variable made every read a keyed lookup.
  for (const row of rows) {
    tasks.add(row.id);
    statuses.add(row.status_id);
    groups.add(row.group_id);
    if (row.project_id !== null) projects.add(row.project_id);
    if (row.assigned_to_id !== null) users.add(row.assigned_to_id);
  }
  return [tasks, statuses, groups, projects, users];
}

/** The rows of one statement back to each task's labels and expansions (ExpansionColumns). */
function expansionsByRow(rows: readonly TaskRow[], found: PartRow[]): ExpansionColumns[] {
  // The statement's rows by kind, then each kind by the id itself: a page looks up four of them for
  // each of its rows.
  const byKind = groupBy(found, (r) => r.k);
  const ofKind = (k: PartRow['k']) => byKind.get(k) ?? [];
  const labels = groupBy(
    ofKind('l'),
    (r) => r.a,
    (r) => ({ id: r.b, position: Number(r.c) }),
  );
  const teams = groupBy(
    ofKind('t'),
    (r) => r.a,
    (r) => r.b,
  );
  const byItsId = (k: PartRow['k']) => new Map(ofKind(k).map((r) => [r.a, r]));
  const statuses = byItsId('s');
  const groups = byItsId('g');
  const projects = byItsId('p');
  const users = byItsId('u');
  return rows.map((row) => {
    // In their team's order, as a task's own statement aggregates them.
    const own = labels.get(row.id);
    const out: ExpansionColumns = {
      label_ids: own ? own.sort((x, y) => x.position - y.position).map((l) => l.id) : [],
    };
    const s = statuses.get(row.status_id);
    if (s) {
      out.s_id = s.a;
      out.s_name = s.b;
      out.s_stage = s.c as TaskStage;
      out.s_color = s.d!;
    }
    const g = groups.get(row.group_id);
    if (g) {
      out.g_id = g.a;
      out.g_name = g.b;
      out.g_public_id = g.c!;
    }
    const p = row.project_id === null ? undefined : projects.get(row.project_id);
    if (p) {
      out.p_id = p.a;
      out.p_name = p.b;
      out.p_teams = teams.get(p.a) ?? [];
    }
    const u = row.assigned_to_id === null ? undefined : users.get(row.assigned_to_id);
    if (u) {
      out.u_id = u.a;
      out.u_name = u.b;
      out.u_email = u.c;
    }
    return out;
  });
}

type Argument = string | number | string[];
type Statement<Row> = (db: Kysely<DB>, ...args: Argument[]) => Promise<Row[]>;
const statements = new Map<string, Statement<unknown>>();

/** One prepared statement per dialect, form and set of expansions (a handful of texts in all). */
function statement<Row>(key: string, build: (...args: Argument[]) => RawBuilder<Row>): Statement<Row> {
  let found = statements.get(key) as Statement<Row> | undefined;
  if (!found) {
    found = preparedSql(build);
    statements.set(key, found as Statement<unknown>);
  }
  return found;
}

/** The labels and expansions of a page of tasks (one statement), one per row, in the rows' order. */
export async function expansionsOf(
  db: Kysely<DB>,
  dialect: Dialect,
  workspaceId: string,
  rows: readonly TaskRow[],
  joined: readonly Joined[],
): Promise<ExpansionColumns[]> {
  const run = statement(`${dialect}:page:${joined.join(',')}`, (ws, ...ids) =>
    pageParts(dialect, joined, String(ws), ids.map(String)),
  );
  const ids = idsOf(rows).map((set) => idList(dialect, set));
  return expansionsByRow(rows, (await run(db, workspaceId, ...ids)) as PartRow[]);
}

/** A task by id or publicId with its labels and expansions, in one statement. */
export async function findTaskExpanded(
  db: Kysely<DB>,
  dialect: Dialect,
  workspaceId: string,
  ref: { id: string } | { publicId: number },
  joined: readonly Joined[],
): Promise<(TaskRow & ExpansionColumns) | undefined> {
  const byId = 'id' in ref;
  const run = statement(`${dialect}:${byId ? 'id' : 'public_id'}:${joined.join(',')}`, (ws, key) => {
    const { columns, joins } = joinedSql(dialect, joined, String(ws));
    const where = byId ? sql`t.id = ${key}` : sql`t.public_id = ${key}`;
    return sql<TaskRow & ExpansionColumns>`select ${sql.raw(TASK_COLUMNS.join(', '))}, ${columns}
        from tasks t ${joins} where t.workspace_id = ${ws} and ${where}`;
  });
  return (await run(db, workspaceId, byId ? ref.id : ref.publicId))[0];
}
