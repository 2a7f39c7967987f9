// A batch import of tasks from a CSV file: batchUpsertTasks (POST /v1/tasks/batch) in chunks of up to 100 rows, each
// chunk one request (with its own Idempotency-Key, so a retried chunk is never imported twice), and the
// rows the server refused reported with their line in the file, the code and the reason.
//
// The CSV has a header line naming the columns, each a field of a task (docs/api.md, "Tasks"): name,
// teamId, projectId, statusId, assignedToId, dueDate, priority (true/false), description (markdown).
// Empty cells are left out. Parsed with csv-parse (quotes, commas and line breaks in cells).
// Run: CAIRN_URL=... CAIRN_TOKEN=... node examples/import-csv.ts tasks.csv
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { createClient, type operations } from '../src/index.ts';

type Entry = operations['batchUpsertTasks']['requestBody']['content']['application/json']['tasks'][number];

const COLUMNS = [
  'name',
  'teamId',
  'projectId',
  'statusId',
  'assignedToId',
  'dueDate',
  'priority',
  'description',
];

export interface RowFailure {
  /** The line of the file the row starts on (the header is line 1), as a spreadsheet numbers rows. */
  line: number;
  name: string;
  /** The server's code (`validation_failed`, `not_found`, …). */
  code: string;
  error: string;
}

export interface ImportResult {
  created: number;
  failed: RowFailure[];
}

/**
 * One CSV row as a batch entry: known columns, empty cells left out, priority as a boolean. Typed as
 * an entry without being one yet: the server checks each entry, and refuses a bad row alone.
 */
function entryOf(row: Record<string, string>): Entry {
  const entry: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    if (value === '') continue;
    if (!COLUMNS.includes(column))
      throw new Error(`unknown column "${column}"; known: ${COLUMNS.join(', ')}`);
    // Anything but true/false goes as written: the server refuses that row alone, saying why.
    entry[column] = column === 'priority' && /^(true|false)$/i.test(value) ? /^true$/i.test(value) : value;
  }
  return entry as Entry;
}

export async function importCsv(
  baseUrl: string,
  token: string,
  csv: string,
  chunkSize = 100,
): Promise<ImportResult> {
  const cairn = createClient({ baseUrl, token });
  const records = parse(csv, { columns: true, bom: true, info: true, skip_empty_lines: true }) as {
    record: Record<string, string>;
    info: { lines: number };
  }[];
  // info.lines is the line a record ends on; it starts after the previous one (a cell may hold breaks).
  const rows = records.map(({ record }, i) => ({
    record,
    line: i === 0 ? 2 : records[i - 1]!.info.lines + 1,
  }));
  const result: ImportResult = { created: 0, failed: [] };
  for (let start = 0; start < rows.length; start += chunkSize) {
    const chunk = rows.slice(start, start + chunkSize);
    const answer = await cairn.batchUpsertTasks({
      params: { query: { expand: ['none'] } },
      body: { tasks: chunk.map((row) => entryOf(row.record)) },
    });
    result.created += answer.succeeded.length;
    for (const failure of answer.failed) {
      const row = chunk[failure.index]!;
      result.failed.push({
        line: row.line,
        name: row.record.name ?? '',
        code: failure.code,
        error: failure.error,
      });
    }
  }
  return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2]!;
  const { created, failed } = await importCsv(
    process.env.CAIRN_URL ?? 'http://localhost:8080',
    process.env.CAIRN_TOKEN ?? '',
    readFileSync(file, 'utf8'),
  );
  console.log(`${created} tasks created, ${failed.length} rows refused`);
  for (const f of failed) console.log(`${file}:${f.line} "${f.name}": ${f.code}: ${f.error}`);
  process.exitCode = failed.length > 0 ? 1 : 0;
}
