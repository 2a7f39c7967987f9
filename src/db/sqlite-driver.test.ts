// The SQLite driver's rows (sqlite-driver.ts): read as arrays and made into objects by a function
// generated from the column names, they must hold what node:sqlite's own row objects held.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Kysely, sql } from 'kysely';
import { NodeSqliteDialect, openSqlite } from './sqlite-driver.ts';
import type { DB } from './types.ts';

function memory<Tables = DB>(): Kysely<Tables> {
  return new Kysely<Tables>({ dialect: new NodeSqliteDialect(openSqlite(':memory:')) });
}

test('rows keep every column by its name, whatever the name, with node:sqlite values', async () => {
  const db = memory();
  try {
    const { rows } = await sql<Record<string, unknown>>`select 1 as plain, 'q' as "with ""quotes""",
      'line' as "a\u2028b", 2 as "__proto__", 3 as "0", null as absent, x'ff00' as bytes,
      1.5 as real, 'first' as twice, 'second' as twice`.execute(db);
    const [row] = rows;
    assert.ok(row);
    assert.deepEqual(Object.keys(row), [
      '0',
      'plain',
      'with "quotes"',
      'a\u2028b',
      '__proto__',
      'absent',
      'bytes',
      'real',
      'twice',
    ]);
    assert.equal(row.plain, 1);
    assert.equal(row['with "quotes"'], 'q');
    assert.equal(row['a\u2028b'], 'line');
    // An own property, as node:sqlite had it, never the object's prototype.
    assert.ok(Object.hasOwn(row, '__proto__'));
    assert.equal(Object.getOwnPropertyDescriptor(row, '__proto__')?.value, 2);
    assert.equal(Object.getPrototypeOf(row), Object.prototype);
    assert.equal(row[0], 3);
    assert.equal(row.absent, null);
    assert.deepEqual(row.bytes, new Uint8Array([0xff, 0x00]));
    assert.equal(row.real, 1.5);
    assert.equal(row.twice, 'second', 'a name given twice keeps its last value, as in node:sqlite');
  } finally {
    await db.destroy();
  }
});

test('every row of a statement, from all() and from a stream, and writes without rows', async () => {
  const db = memory<{ t: { id: number; name: string } }>();
  try {
    await sql`create table t (id integer primary key, name text)`.execute(db);
    const inserted = await sql`insert into t (name) values ('a'), ('b'), ('c')`.execute(db);
    assert.equal(inserted.numAffectedRows, 3n);
    assert.deepEqual(inserted.rows, []);
    const returned = await sql<{ id: number }>`insert into t (name) values ('d') returning id`.execute(db);
    assert.deepEqual(returned.rows, [{ id: 4 }]);
    const all = await sql<{ id: number; name: string }>`select id, name from t order by id`.execute(db);
    assert.deepEqual(all.rows, [
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
      { id: 3, name: 'c' },
      { id: 4, name: 'd' },
    ]);
    const streamed: unknown[] = [];
    const query = db.selectFrom('t').select(['id', 'name']).orderBy('id', 'desc');
    for await (const row of query.stream(2)) streamed.push(row);
    assert.deepEqual(streamed, [...all.rows].reverse());
  } finally {
    await db.destroy();
  }
});
