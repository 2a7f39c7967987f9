// `cairn import` checks every value against its column before writing anything: a file whose values
// the API would never have written is refused, naming line, table and column, and nothing is imported.
import assert from 'node:assert/strict';
import { PassThrough, Readable } from 'node:stream';
import { after, describe, test } from 'node:test';
import type { Database } from '../db/index.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createWorkspace } from '../modules/workspaces/service.ts';
import { onPostgres, openTestDatabase, setup } from '../test/helpers.ts';
import { toTimestamp } from '../text/dates.ts';
import { exportData } from './export.ts';
import { ImportError, importData } from './import.ts';
import { exportedColumns, TABLES } from './tables.ts';
import { columnRules, isStoredTimestamp, kindOf } from './values.ts';

const f = await setup(undefined, { CAIRN_WEBHOOK_WORKER: 'false' });
const team = (await f.owner.post('/v1/teams', { name: 'Engineering' })).body;
await f.owner.post('/v1/tasks?expand=none', { name: 'Check values', teamId: team.id, priority: true });

async function exported(database: Database): Promise<string[]> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  await exportData(database, out, {});
  out.end();
  return Buffer.concat(chunks).toString('utf8').trimEnd().split('\n');
}
const source = await exported(f.database);
const text = (lines: string[]) => Readable.from([`${lines.join('\n')}\n`]);

async function fresh(): Promise<Database> {
  const target = await openTestDatabase();
  after(() => target.drop());
  await migrateToLatest(target.database);
  return target.database;
}

/** The file with one row of `table` changed by `change`; the line number (1-based) of that row. */
function edited(table: string, change: (row: Record<string, unknown>) => void): [string[], number] {
  const at = source.findIndex((l) => l.startsWith(`{"table":"${table}"`));
  const line = JSON.parse(source[at]!);
  change(line.row);
  const lines = [...source];
  lines[at] = JSON.stringify(line);
  return [lines, at + 1];
}

async function refused(target: Database, lines: string[], message: string) {
  await assert.rejects(importData(target, text(lines)), (e: Error) => {
    assert.ok(e instanceof ImportError, e.message);
    assert.equal(e.message, message);
    return true;
  });
  assert.deepEqual(await target.db.selectFrom('workspaces').select('id').execute(), []);
}

describe('a value the API would not have written is refused, and nothing is imported', async () => {
  const target = await fresh();

  test('a workspace code that is text or out of range; workspace create works after', async () => {
    const alone = await fresh();
    const range = 'must be an integer from 1 to 2147483647';
    for (const code of ['7', 'abc', 0, -1, 2_147_483_648, 1e20, 1.5]) {
      const [lines, n] = edited('workspaces', (row) => {
        row.code = code;
      });
      await refused(alone, lines, `line ${n}: workspaces.code ${range} (got ${JSON.stringify(code)})`);
    }
    const made = await createWorkspace(alone, { name: 'After', ownerName: 'A', ownerEmail: 'a@after.test' });
    const codes = await alone.db.selectFrom('workspaces').select('code').execute();
    assert.deepEqual(
      codes.map((c) => Number(c.code)),
      [1],
    );
    assert.equal(typeof made.token, 'string');
  });

  test('booleans, timestamps, ids, text, nulls and the set of columns', async () => {
    const shape = 'must be a timestamp as Cairn stores it (2026-11-24T09:15:02.118Z), in the years 1 to 9999';
    // [table, column, value (undefined: left out), the message after "line N: "]
    const cases: [string, string, unknown, string][] = [
      ['tasks', 'priority', 1, 'tasks.priority must be true or false (got 1)'],
      [
        'tasks',
        'created_at',
        '2026-02-30T00:00:00.000Z',
        `tasks.created_at ${shape} (got "2026-02-30T00:00:00.000Z")`,
      ],
      ['users', 'updated_at', '2026-11-24 09:15', `users.updated_at ${shape} (got "2026-11-24 09:15")`],
      ['tasks', 'name', 42, 'tasks.name must be text (got 42)'],
      [
        'groups',
        'name',
        'nul\u0000',
        'groups.name contains a NUL character (U+0000), which cannot be stored (got "nul\\u0000")',
      ],
      ['users', 'email', null, 'users.email must not be null (got null)'],
      ['tasks', 'colour', 'red', 'tasks.colour is not a column of this table'],
      ['tasks', 'visibility', undefined, 'tasks.visibility is missing'],
      ['tasks', 'public_id', '12', 'tasks.public_id must be an integer from 1 to 2147483647 (got "12")'],
      ['tasks', 'assigned_to_id', 'ada', 'tasks.assigned_to_id must be a lower-case UUID (got "ada")'],
      [
        'groups',
        'id',
        'A0000000-0000-4000-8000-000000000000',
        'groups.id must be a lower-case UUID (got "A0000000-0000-4000-8000-000000000000")',
      ],
    ];
    for (const [table, column, value, message] of cases) {
      const [lines, n] = edited(table, (row) => {
        if (value === undefined) delete row[column];
        else row[column] = value;
      });
      await refused(target, lines, `line ${n}: ${message}`);
    }
  });

  test('the file as exported passes every check', async () => {
    const result = await importData(target, text(source));
    assert.equal(result.imported.length, 1);
  });
});

test("each column's kind agrees with this database's own type for it", async () => {
  const rules = await columnRules(f.database.db, f.database.dialect);
  const { sql } = await import('kysely');
  for (const table of TABLES) {
    const rows = onPostgres
      ? await sql<{ name: string; type: string }>`select column_name as name, data_type as type
          from information_schema.columns where table_schema = current_schema() and table_name = ${table.name}`.execute(
          f.database.db,
        )
      : await sql<{
          name: string;
          type: string;
        }>`select name, type from pragma_table_info(${table.name})`.execute(f.database.db);
    const types = new Map(rows.rows.map((r) => [r.name, r.type.toLowerCase()]));
    for (const column of exportedColumns(table.name, [...types.keys()])) {
      const type = types.get(column);
      if (type === undefined) continue; // cursor_event_id, which is not stored
      const kind = rules.get(table.name)!.get(column)!.kind;
      assert.equal(kind, kindOf(table.name, column, type === 'integer' || type === 'bigint'));
      const expected = onPostgres
        ? {
            text: 'text',
            id: 'uuid',
            integer: 'integer',
            boolean: 'boolean',
            timestamp: 'timestamp with time zone',
          }[kind]
        : { text: 'text', id: 'text', integer: 'integer', boolean: 'integer', timestamp: 'text' }[kind];
      assert.equal(type, expected, `${table.name}.${column}`);
    }
  }
});

test('a file whose bytes are not UTF-8 is refused, not imported with replacement characters', async () => {
  const target = await fresh();
  const at = source.findIndex((l) => l.startsWith('{"table":"groups"'));
  const bytes = Buffer.from(`${source.join('\n')}\n`);
  const where = bytes.indexOf(Buffer.from('Engineering'), Buffer.byteLength(source.slice(0, at).join('\n')));
  bytes[where] = 0xe9; // a Latin-1 é in place of the E
  await assert.rejects(importData(target, Readable.from([bytes])), (e: Error) => {
    assert.ok(e instanceof ImportError, e.message);
    assert.match(e.message, /^the file is not UTF-8: bytes 0 to \d+ hold a sequence that is not$/);
    return true;
  });
  assert.deepEqual(await target.db.selectFrom('workspaces').select('id').execute(), []);
  const cut = Buffer.concat([Buffer.from(`${source.join('\n')}\n`), Buffer.from([0xe2, 0x82])]);
  await assert.rejects(importData(target, Readable.from([cut])), /ends inside a character/);
  assert.equal(
    (await importData(target, Readable.from([Buffer.from(`${source.join('\n')}\n`)]))).imported.length,
    1,
  );
});

test('a stored timestamp is checked as toTimestamp would read it: what it gives back unchanged', () => {
  const candidates = [
    '2026-11-24T09:15:02.118Z',
    '0001-01-01T00:00:00.000Z',
    '0000-12-31T23:59:59.999Z',
    '9999-12-31T23:59:59.999Z',
    '2024-02-29T12:00:00.000Z',
    '2023-02-29T12:00:00.000Z',
    '2026-02-30T00:00:00.000Z',
    '2026-02-32T00:00:00.000Z',
    '2026-04-31T00:00:00.000Z',
    '2026-00-10T00:00:00.000Z',
    '2026-13-10T00:00:00.000Z',
    '2026-01-00T00:00:00.000Z',
    '2026-01-10T24:00:00.000Z',
    '2026-01-10T23:60:00.000Z',
    '2026-01-10T23:59:60.000Z',
    '2026-01-10T23:59:59.000z',
    '2026-01-10T23:59:59Z',
    '2026-01-10 23:59:59.000Z',
    '2026-01-10T23:59:59.000+00:00',
    '1900-02-29T00:00:00.000Z',
    '2000-02-29T00:00:00.000Z',
    '0004-02-29T00:00:00.000Z',
    '2100-02-29T00:00:00.000Z',
    '2400-02-29T00:00:00.000Z',
    '2026-06-31T00:00:00.000Z',
    '2026-12-31T23:59:59.999Z',
    '2026-11-31T00:00:00.000Z',
  ];
  for (const value of candidates) {
    let read: string | undefined;
    try {
      read = toTimestamp(value, 'value');
    } catch {}
    assert.equal(isStoredTimestamp(value), read === value, value);
  }
});
