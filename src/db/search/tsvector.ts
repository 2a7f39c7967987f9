// PostgreSQL: a `<field>_tsv` tsvector column per field with a GIN index led by workspace_id. The
// vector is built from our folded words with array_to_tsvector and the query is a tsquery literal of
// 'w':* prefixes, so PostgreSQL's own parser and dictionaries never touch the text: the words are the
// same ones SQLite indexes. Filters are ordinary SQL conditions on the row.
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Page, PageRequest, Tiered, Total } from '../keyset.ts';
import type { DB } from '../types.ts';
import { distinctWords } from './fold.ts';
import type { TaggedListContext, TaggedSource } from './fts5.ts';
import type {
  Entry,
  FieldQuery,
  MatchMode,
  SearchColumns,
  SearchTarget,
  TaggedTarget,
  TsvectorProvider,
} from './index.ts';
import { type WordSearch, wordPage } from './word-walk.ts';

function tsquery(words: string[]): string {
  return words.map((w) => `'${w}':*`).join(' & ');
}

/** A text's folded words as a tsvector, without PostgreSQL's parser or dictionaries. */
function vector(text: string | null | undefined): RawBuilder<unknown> {
  return sql`array_to_tsvector(${distinctWords(text)}::text[])`;
}

/**
 * The same vector as `vector(text)`, as tsvector input text (`'word' 'other'`): for a COPY, which takes
 * values as text. Words hold only letters and digits (fold.ts); quotes and backslashes are escaped anyway.
 */
export function vectorText(text: string | null | undefined): string {
  const words = distinctWords(text);
  if (words.length === 0) return '';
  const quotable = /['\\]/.test(words.join(''));
  return `'${(quotable ? words.map((w) => w.replaceAll('\\', '\\\\').replaceAll("'", "''")) : words).join("' '")}'`;
}

export class TsvectorSearch implements TsvectorProvider {
  readonly kind = 'tsvector';

  rowColumns(target: TaggedTarget, texts: Record<string, string | null>): SearchColumns {
    return Object.fromEntries(target.fields.map((f) => [`${f}_tsv`, vector(texts[f])]));
  }

  // A tagged target's row already holds its vectors (rowColumns, set by its own INSERT or UPDATE).
  async write(db: Kysely<DB>, target: SearchTarget, { row, texts }: Entry): Promise<void> {
    if (target.tagged) return;
    const sets = target.fields.map((f) => sql`${sql.ref(`${f}_tsv`)} = ${vector(texts[f])}`);
    await sql`update ${sql.table(target.table)} set ${sql.join(sets)}
      where workspace_id = ${row.workspaceId} and id = ${row.id}`.execute(db);
  }

  async writeNew(db: Kysely<DB>, target: SearchTarget, rows: Entry[]): Promise<void> {
    if (rows.length === 0 || target.tagged) return;
    const tuples = rows.map(
      ({ row, texts }) =>
        sql`(${row.id}, ${sql.join(target.fields.map((f) => sql`${distinctWords(texts[f])}::text[]`))})`,
    );
    const names = sql.join(target.fields.map((f) => sql.ref(`w_${f}`)));
    const sets = target.fields.map(
      (f) => sql`${sql.ref(`${f}_tsv`)} = array_to_tsvector(${sql.ref(`v.w_${f}`)})`,
    );
    // The rows are found by `= any` (its array takes the id column's type, uuid since migration
    // 0020) and matched to their words as text, so the statement runs on either type of column.
    await sql`update ${sql.table(target.table)} as t set ${sql.join(sets)}
      from (values ${sql.join(tuples)}) as v (id, ${names})
      where t.workspace_id = ${rows[0]!.row.workspaceId} and t.id = any(${rows.map((r) => r.row.id)})
        and t.id::text = v.id`.execute(db);
  }

  matches(_target: SearchTarget, alias: string, queries: FieldQuery[], mode: MatchMode): RawBuilder<SqlBool> {
    const parts = queries.map(
      (q) => sql`${sql.ref(`${alias}.${q.field}_tsv`)} @@ ${tsquery(q.words)}::tsquery`,
    );
    return sql<SqlBool>`(${sql.join(parts, sql.raw(mode === 'all' ? ' and ' : ' or '))})`;
  }

  taggedPage<R>(
    ctx: TaggedListContext,
    source: TaggedSource<R>,
    s: WordSearch,
    page: PageRequest,
  ): Promise<Page<Tiered<R>> & Total> {
    return wordPage(ctx, source, s, page);
  }
}
