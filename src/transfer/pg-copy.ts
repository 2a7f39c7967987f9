// PostgreSQL: cairn import streams each table's rows through COPY FROM STDIN (pg-copy-streams), on the
// client that holds the import's one transaction. COPY takes rows as text lines with no statement per
// batch, and the server stores them while the next lines are read and checked here. Search vectors go
// in the same rows: a table's `<field>_tsv` columns are where tsvector.ts keeps its index, filled with
// the same words its own writes would put there (`vectorText`), so no second pass updates them.
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type pg from 'pg';
import { type CopyStreamQuery, from as copyFrom } from 'pg-copy-streams';
import { vectorText } from '../db/search/tsvector.ts';
import type { Row, TableTarget, TableWriter } from './writers.ts';

/** Lines are gathered into chunks of about this many characters before they are written. */
const CHUNK = 64 * 1024;

const SPECIAL = /[\\\t\n\r]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A value in COPY's text format: \N for null, t/f, and backslash escapes for what ends a field. */
function field(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  const text = String(value);
  return SPECIAL.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]!) : text;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

export class CopyWriter implements TableWriter {
  readonly #stream: CopyStreamQuery;
  readonly #done: Promise<void>;
  readonly #columns: readonly string[];
  /** The searched fields, each stored as `<field>_tsv`, when the table is a search target. */
  readonly #fields: readonly string[];
  readonly #texts: ((row: Row) => Record<string, string | null>) | undefined;
  #chunk = '';
  #failed: Error | undefined;

  constructor(client: pg.PoolClient, target: TableTarget) {
    const { table, columns } = target;
    const index = table.index?.target.table === table.name ? table.index : undefined;
    this.#columns = columns;
    this.#fields = index?.target.fields ?? [];
    this.#texts = index ? (row) => index.texts(row as never) : undefined;
    const names = [...columns, ...this.#fields.map((f) => `${f}_tsv`)].map(quoted).join(', ');
    this.#stream = client.query(copyFrom(`copy ${quoted(table.name)} (${names}) from stdin`));
    this.#done = finished(this.#stream);
    // A row the server refuses fails the stream at once; the next add or finish says so.
    this.#done.catch((error: Error) => {
      this.#failed ??= error;
    });
  }

  async add(row: Row): Promise<void> {
    let line = '';
    for (const column of this.#columns) line += `${field(row[column])}\t`;
    if (this.#texts) {
      const texts = this.#texts(row);
      for (const f of this.#fields) line += `${field(vectorText(texts[f]))}\t`;
    }
    this.#chunk += `${line.slice(0, -1)}\n`;
    if (this.#chunk.length >= CHUNK) await this.#write();
  }

  async finish(): Promise<void> {
    await this.#write();
    if (this.#failed) throw this.#failed;
    this.#stream.end();
    await this.#done;
  }

  async abort(): Promise<void> {
    // CopyFail: the server ends the COPY with an error, and the connection takes queries again.
    if (!this.#stream.destroyed) this.#stream.destroy(new Error('cairn import gave up'));
    await this.#done.catch(() => {});
  }

  async #write(): Promise<void> {
    if (this.#failed) throw this.#failed;
    const chunk = this.#chunk;
    this.#chunk = '';
    if (chunk === '' || this.#stream.write(chunk)) return;
    await Promise.race([once(this.#stream, 'drain'), this.#done]);
    if (this.#failed) throw this.#failed;
  }
}
