// The worker's claim (repository.ts claimDue) seeks the events' indexes for every form of `event`: a
// name, `*` and `<resource>.*`. With EXISTS, PostgreSQL read the events with a sequential scan for `*`
// and `task.*` subscriptions, once per subscription: 5 s a claim at 200,000 events
// (docs/performance.md "Webhook subscriptions with patterns").
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, test } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { migrateToLatest } from '../../db/migrate.ts';
import { readEvents, START } from '../../events/stream.ts';
import { openTestDatabase } from '../../test/helpers.ts';
import { EVENT_TYPES } from '../registry.ts';
import { createWorkspace } from '../workspaces/service.ts';
import { EVENT_PATTERNS, readTypes } from './patterns.ts';
import { claimDue } from './repository.ts';

const EVENTS = 20_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function* nodesOf(node: PlanNode): Generator<PlanNode> {
  yield node;
  for (const child of node.Plans ?? []) yield* nodesOf(child);
}

const { database, drop } = await openTestDatabase();
after(drop);
await migrateToLatest(database);
const { db, dialect } = database;
const ws = await createWorkspace(database, { name: 'Plan', ownerName: 'P', ownerEmail: 'p@e.test' });

/** EVENTS events, mostly task ones, the rest spread over the other types, as a workspace's stream is. */
async function seedEvents(): Promise<void> {
  const types = EVENT_TYPES.flatMap((t) => (t.startsWith('task.') ? [t, t, t, t, t, t] : [t]));
  const pick = sql`(${JSON.stringify(types)})`;
  const type =
    dialect === 'postgres'
      ? sql`(${pick}::jsonb ->> ((i * 7919) % ${types.length})::int)`
      : sql`json_extract(${pick}, '$[' || cast((i * 7919) % ${types.length} as integer) || ']')`;
  const numbers =
    dialect === 'postgres'
      ? sql`generate_series(1, ${EVENTS}) as n(i)`
      : sql`(with recursive n(i) as (select 1 union all select i + 1 from n where i < ${EVENTS}) select i from n) n`;
  // Ids are uuid on PostgreSQL (migration 0020), which makes them itself; text on SQLite.
  const id = dialect === 'postgres' ? sql`gen_random_uuid()` : sql`${sql.lit(randomUUID())} || '-' || i`;
  await sql`insert into events (workspace_id, id, type, entity_type, entity_id, actor_id, created_at, tx)
    select ${ws.workspace.id}, ${id}, ${type}, 'task', ${randomUUID()}, ${ws.user.id}, ${new Date().toISOString()}, ${dialect === 'postgres' ? sql`1000 + i / 4` : sql`0`}
    from ${numbers}`.execute(db);
}
await seedEvents();

test('a claim probes the events by index for names, `*` and `<resource>.*`, never by a scan', async () => {
  const last = await db
    .selectFrom('events')
    .select(['tx', 'seq'])
    .orderBy('tx', 'desc')
    .orderBy('seq', 'desc')
    .executeTakeFirstOrThrow();
  // Caught-up subscriptions of every form (their place at the end of the stream).
  const at = new Date().toISOString();
  for (const [i, event] of [...EVENT_TYPES, ...EVENT_PATTERNS].entries()) {
    await db
      .insertInto('webhook_subscriptions')
      .values({
        workspace_id: ws.workspace.id,
        id: randomUUID(),
        hook_url: `https://hooks.example/${i}`,
        event,
        secret: 'whsec_x',
        created_by_id: ws.user.id,
        cursor_tx: last.tx,
        cursor_seq: last.seq,
        state: 'active',
        disabled_reason: null,
        disabled_at: null,
        attempts: 0,
        failing_since: null,
        next_attempt_at: null,
        lease_owner: null,
        lease_until: null,
        created_at: at,
        updated_at: at,
        changed_at: at,
        previous_secret: null,
        previous_secret_expires_at: null,
      })
      .execute();
  }
  await sql`analyze`.execute(db);

  // The claim's statements as sent, to be explained.
  const sent: CompiledQuery[] = [];
  const spy = db.withPlugin({
    transformQuery: ({ node, queryId }) => {
      sent.push(db.getExecutor().compileQuery(node, queryId));
      return node;
    },
    transformResult: async ({ result }) => result,
  });
  assert.deepEqual(await claimDue(spy, dialect, 'plan', at, at, 8), []);
  const claim = sent.at(-1)!;
  if (dialect === 'postgres') {
    const explained = await db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      CompiledQuery.raw(`explain (format json) ${claim.sql}`, [...claim.parameters]),
    );
    const nodes = [...nodesOf(explained.rows[0]!['QUERY PLAN'][0].Plan)].filter(
      (n) => n['Relation Name'] === 'events',
    );
    assert.deepEqual(
      nodes.filter((n) => !n['Node Type'].startsWith('Index')),
      [],
      'no scan of the events but by an index',
    );
    assert.deepEqual([...new Set(nodes.map((n) => n['Index Name']))].sort(), [
      'events_stream',
      'events_stream_by_type',
    ]);
  } else {
    const explained = await db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${claim.sql}`, [...claim.parameters]),
    );
    const ofEvents = explained.rows.map((r) => r.detail).filter((d) => / e( |$)/.test(d));
    assert.ok(ofEvents.length > 0);
    for (const detail of ofEvents) assert.match(detail, /^SEARCH e USING COVERING INDEX events_stream/);
  }
});

test("reading a pattern's events seeks each type, even with a generic plan (stream.ts readEvents)", async () => {
  const sent: CompiledQuery[] = [];
  const spy = db.withPlugin({
    transformQuery: ({ node, queryId }) => {
      sent.push(db.getExecutor().compileQuery(node, queryId));
      return node;
    },
    transformResult: async ({ result }) => result,
  });
  // A rare resource's four types, from the start of the stream: 20,000 events after the place.
  const rows = await readEvents(spy, dialect, ws.workspace.id, START, readTypes('document.*'), 10);
  assert.equal(rows.length, 10);
  assert.ok(rows.every((r) => r.type.startsWith('document.')));
  const read = sent.at(-1)!;
  if (dialect === 'postgres') {
    // What PostgreSQL runs once it reuses a prepared statement's generic plan (EXECUTE takes its
    // arguments as literals; all on one connection).
    const literal = (v: unknown) =>
      typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`;
    const explained = await db.connection().execute(async (conn) => {
      await sql`set plan_cache_mode = force_generic_plan`.execute(conn);
      await conn.executeQuery(CompiledQuery.raw(`prepare read_plan as ${read.sql}`));
      const plan = await conn.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        CompiledQuery.raw(
          `explain (format json) execute read_plan(${read.parameters.map(literal).join(', ')})`,
        ),
      );
      await sql`deallocate read_plan`.execute(conn);
      await sql`reset plan_cache_mode`.execute(conn);
      return plan;
    });
    const nodes = [...nodesOf(explained.rows[0]!['QUERY PLAN'][0].Plan)].filter(
      (n) => n['Relation Name'] === 'events',
    );
    assert.ok(nodes.length > 1);
    assert.deepEqual(
      nodes.map((n) => [n['Node Type'].startsWith('Index'), n['Index Name']]),
      nodes.map(() => [true, 'events_stream_by_type']),
    );
  } else {
    const explained = await db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${read.sql}`, [...read.parameters]),
    );
    const ofEvents = explained.rows.map((r) => r.detail).filter((d) => /\bevents\b/.test(d));
    assert.ok(ofEvents.length > 1);
    for (const detail of ofEvents) assert.match(detail, /USING (COVERING )?INDEX events_stream_by_type/);
  }
});
