// What `cairn import` accepts in a row: every column of the table, each value of its column's kind and
// within its range, as the API would have written it. The databases do not check this for us: SQLite
// stores text in an integer column and a float where an integer belongs, and a workspace code that
// arrived as "abc" or 1e20 broke every later `workspace create` (max(code) + 1 stopped being a number
// or a new one). So the file is checked value by value, the same on both databases, before any write.
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db/index.ts';
import type { DB } from '../db/types.ts';
import { UUID } from '../http/ids.ts';
import { unstorableString } from '../http/validation.ts';
import { booleansOf, datesOf, exportedColumns, TABLES } from './tables.ts';

export type Kind = 'text' | 'id' | 'integer' | 'boolean' | 'timestamp';

export interface ColumnRule {
  kind: Kind;
  nullable: boolean;
  min?: number;
  max?: number;
}

/** Every travelling integer column is PostgreSQL's `integer`; SQLite's would hold anything. */
const INT32 = { min: -2_147_483_648, max: 2_147_483_647 };

/** Ranges narrower than the column's, where the API never writes less (codes and numbers start at 1). */
const RANGES: Record<string, { min: number; max: number }> = {
  'workspaces.code': { min: 1, max: INT32.max },
  'tasks.public_id': { min: 1, max: INT32.max },
};

/** A column's kind from its stored family (integer or not) and its table's spec (booleans, dates). */
export function kindOf(table: keyof DB, column: string, integer: boolean): Kind {
  if (booleansOf(table).includes(column)) return 'boolean';
  if (integer) return 'integer';
  // Ids are lower-case UUIDs, `uuid` on PostgreSQL (migration 0020), which refuses anything else;
  // publicIds are the resource's own numbers or keys.
  if (isIdColumn(column)) return 'id';
  // Timestamps are text on SQLite: every column ending in `_at`, and those the table's spec names as
  // dates (a test holds this to PostgreSQL's types).
  return column.endsWith('_at') || datesOf(table).includes(column) ? 'timestamp' : 'text';
}

/** Whether a column holds an id: `id` and every `…_id` but a publicId. */
function isIdColumn(column: string): boolean {
  return column === 'id' || (column.endsWith('_id') && column !== 'public_id');
}

/** http/ids.ts's UUID as stored: lower-case only (the API lower-cases every id it is sent). */
const STORED_ID = new RegExp(UUID.source);

interface StoredColumn {
  name: string;
  type: string;
  nullable: boolean;
}

async function storedColumns(db: Kysely<DB>, dialect: Dialect, table: string): Promise<StoredColumn[]> {
  const rows =
    dialect === 'sqlite'
      ? await sql<{ name: string; type: string; notnull: number }>`select name, type, "notnull"
          from pragma_table_info(${table})`.execute(db)
      : await sql<{ name: string; type: string; notnull: boolean }>`select column_name as name,
          data_type as type, is_nullable = 'NO' as notnull from information_schema.columns
          where table_schema = current_schema() and table_name = ${table}`.execute(db);
  return rows.rows.map((r) => ({ name: r.name, type: r.type.toLowerCase(), nullable: !r.notnull }));
}

/** The rule of every column a file row holds, table by table, from this database's own catalog. */
export async function columnRules(
  db: Kysely<DB>,
  dialect: Dialect,
): Promise<Map<string, Map<string, ColumnRule>>> {
  const out = new Map<string, Map<string, ColumnRule>>();
  for (const table of TABLES) {
    const stored = await storedColumns(db, dialect, table.name);
    const byName = new Map(stored.map((c) => [c.name, c]));
    const rules = new Map<string, ColumnRule>();
    for (const name of exportedColumns(table.name, [...byName.keys()])) {
      const column = byName.get(name);
      // The one column that is not stored: a subscription's place, as the id of an event (or none).
      if (!column) {
        rules.set(name, { kind: 'id', nullable: true });
        continue;
      }
      const kind = kindOf(table.name, name, column.type === 'integer' || column.type === 'bigint');
      const range = kind === 'integer' ? (RANGES[`${table.name}.${name}`] ?? INT32) : {};
      rules.set(name, { kind, nullable: column.nullable, ...range });
    }
    out.set(table.name, rules);
  }
  return out;
}

const STORED_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number written by the digits of `text` from `start` to `end` (the pattern made them digits). */
function digits(text: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) n = n * 10 + text.charCodeAt(i) - 48;
  return n;
}

/**
 * Whether `value` is a timestamp as Cairn stores it: what `toTimestamp` (text/dates.ts) gives back
 * unchanged, in the years 1 to 9999. The pattern fixes its shape, so what is left is a real date and
 * time of day, checked by arithmetic: an import checks hundreds of thousands, and toTimestamp, which
 * reads every form a request may send, cost a tenth of an import's time (values.test.ts holds the
 * two to the same answers).
 */
export function isStoredTimestamp(value: string): boolean {
  if (!STORED_TIMESTAMP.test(value)) return false;
  const year = digits(value, 0, 4);
  const month = digits(value, 5, 7);
  const day = digits(value, 8, 10);
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  if (day > DAYS_IN_MONTH[month - 1]! + (month === 2 && leap ? 1 : 0)) return false;
  return digits(value, 11, 13) < 24 && digits(value, 14, 16) < 60 && digits(value, 17, 19) < 60;
}

/** Why a value does not fit its column, or null when it does. */
function misfit(rule: ColumnRule, value: unknown): string | null {
  if (value === null) return rule.nullable ? null : 'must not be null';
  switch (rule.kind) {
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'integer': {
      const ok =
        Number.isSafeInteger(value) && (value as number) >= rule.min! && (value as number) <= rule.max!;
      return ok ? null : `must be an integer from ${rule.min} to ${rule.max}`;
    }
    case 'text':
      if (typeof value !== 'string') return 'must be text';
      return unstorableString(value, '')?.message ?? null;
    case 'id':
      return typeof value === 'string' && STORED_ID.test(value) ? null : 'must be a lower-case UUID';
    case 'timestamp':
      return typeof value === 'string' && isStoredTimestamp(value)
        ? null
        : 'must be a timestamp as Cairn stores it (2026-11-24T09:15:02.118Z), in the years 1 to 9999';
  }
}

/** What is wrong with a file row of `table` (its first problem, naming the column), or null. */
export function rowProblem(rules: Map<string, ColumnRule>, row: Record<string, unknown>): string | null {
  for (const column of Object.keys(row)) {
    if (!rules.has(column)) return `${column} is not a column of this table`;
  }
  for (const [column, rule] of rules) {
    if (!(column in row)) return `${column} is missing`;
    const wrong = misfit(rule, row[column]);
    if (wrong) return `${column} ${wrong} (got ${JSON.stringify(row[column])?.slice(0, 60)})`;
  }
  return null;
}
