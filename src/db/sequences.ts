// Change sequences: a number that grows with every change to a row, so that "most recently changed
// first" is an index order (tasks, migration 0002). SQLite takes the next value after the table's
// maximum (its transactions are serialized); PostgreSQL has a sequence, `<table>_seq` by convention
// (migration 0002 makes task_seq).
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Dialect } from './index.ts';
import type { DB } from './types.ts';

const SEQUENCES = { tasks: 'task_seq' } as const;
type Sequenced = keyof typeof SEQUENCES;

/** The next change number, as an expression for an UPDATE … SET seq = … */
export function nextSeq(dialect: Dialect, table: Sequenced): RawBuilder<number> {
  return dialect === 'sqlite'
    ? sql<number>`(select coalesce(max(seq), 0) + 1 from ${sql.table(table)})`
    : sql<number>`nextval(${SEQUENCES[table]})`;
}

/** Takes n new change numbers, ascending, for rows inserted together. */
export async function reserveSeqs(
  db: Kysely<DB>,
  dialect: Dialect,
  table: Sequenced,
  n: number,
): Promise<number[]> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{
      max: number | null;
    }>`select max(seq) as max from ${sql.table(table)}`.execute(db);
    const first = Number(rows[0]?.max ?? 0) + 1;
    return Array.from({ length: n }, (_, i) => first + i);
  }
  const { rows } = await sql<{
    seq: string;
  }>`select nextval(${SEQUENCES[table]}) as seq from generate_series(1, ${n})`.execute(db);
  return rows.map((r) => Number(r.seq)).sort((a, b) => a - b);
}
