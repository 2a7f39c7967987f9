// Which statements run as named (prepared) statements on PostgreSQL: db/pg-statements.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from './index.ts';
import { statementName } from './pg-statements.ts';

// Runs in the SQLite pass too when TEST_POSTGRES_URL is set (CI always sets it).
const url = process.env.TEST_POSTGRES_URL;
const skip = !url && 'needs TEST_POSTGRES_URL';

/** The statements one connection holds after a parameterized query, with prepared statements on or off. */
async function preparedAfterAQuery(preparedStatements: boolean): Promise<string[]> {
  const database = openDatabase(url, { poolSize: 1, preparedStatements });
  try {
    const { rows } = await sql<{ n: number }>`select ${41}::int + 1 as n`.execute(database.db);
    assert.equal(rows[0]?.n, 42);
    const held = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
      database.db,
    );
    return held.rows.map((r) => r.statement);
  } finally {
    await database.close();
  }
}

test('PostgreSQL: a connection prepares the statement it ran, unless CAIRN_PG_PREPARED_STATEMENTS is off', {
  skip,
}, async () => {
  assert.deepEqual(await preparedAfterAQuery(true), ['select $1::int + 1 as n']);
  assert.deepEqual(await preparedAfterAQuery(false), []);
});

test('a parameterized text gets one name, the same every time', () => {
  const text = 'select "t"."id" from "tasks" as "t" where "t"."workspace_id" = $1 and "t"."id" = $2';
  const name = statementName(text, 2);
  assert.match(name ?? '', /^cairn_\d+$/);
  assert.equal(statementName(text, 2), name);
  assert.notEqual(statementName(`${text} limit $3`, 3), name);
});

test('counts are named; texts without parameters, text searches and * column lists are not', () => {
  assert.ok(statementName('select count(*) as "n" from "tasks" where "workspace_id" = $1', 1));
  assert.equal(statementName('begin', 0), undefined);
  assert.equal(statementName('savepoint "entry3"', 0), undefined);
  assert.equal(statementName('select seq from tasks where name_tsv @@ $1::tsquery', 1), undefined);
  assert.equal(statementName('select * from "users" where "workspace_id" = $1', 1), undefined);
  assert.equal(statementName('select "u".* from "users" as "u" where "u"."id" = $1', 1), undefined);
  assert.equal(statementName('insert into "x" ("a") values ($1) returning *', 1), undefined);
});

test('no more than 1,000 distinct texts are named in a process; the rest run unnamed', () => {
  const made = Array.from({ length: 1100 }, (_, i) => statementName(`select ${i} where $1 = 1`, 1));
  assert.ok(made.filter((n) => n !== undefined).length <= 1000);
  assert.equal(made.at(-1), undefined);
});
