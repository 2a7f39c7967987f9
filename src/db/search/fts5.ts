// SQLite: one contentless FTS5 table per target (contentless_delete lets a row be replaced by rowid).
// The 'ascii' tokenizer splits only on ASCII non-alphanumerics and the stored text is folded words
// joined by spaces, so FTS5's tokens are exactly our words. A query word w becomes the prefix query
// "w"*; words hold only letters and digits, so quoting cannot be escaped.
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { DB } from '../types.ts';
import { distinctWords } from './fold.ts';
import type { FieldQuery, IndexedRow, MatchMode, SearchProvider, SearchTarget } from './index.ts';

function fieldExpression(q: FieldQuery): string {
  return q.words.map((w) => `${q.field} : "${w}"*`).join(' AND ');
}

export class Fts5Search implements SearchProvider {
  async write(
    db: Kysely<DB>,
    target: SearchTarget,
    row: IndexedRow,
    texts: Record<string, string | null>,
  ): Promise<void> {
    await this.remove(db, target, row);
    const values = target.fields.map((f) => distinctWords(texts[f]).join(' '));
    await sql`insert into ${sql.table(target.fts)} (rowid, ${sql.join(target.fields.map((f) => sql.ref(f)))})
      values (${row.seq}, ${sql.join(values)})`.execute(db);
  }

  async remove(db: Kysely<DB>, target: SearchTarget, row: IndexedRow): Promise<void> {
    await sql`delete from ${sql.table(target.fts)} where rowid = ${row.seq}`.execute(db);
  }

  matches(target: SearchTarget, alias: string, queries: FieldQuery[], mode: MatchMode): RawBuilder<SqlBool> {
    const joiner = mode === 'all' ? ' AND ' : ' OR ';
    const expression = queries.map((q) => `(${fieldExpression(q)})`).join(joiner);
    return sql<SqlBool>`${sql.ref(`${alias}.seq`)} in (select rowid from ${sql.table(target.fts)} where ${sql.table(target.fts)} match ${expression})`;
  }
}
