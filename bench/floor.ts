// The bare floor (issue 22): the bench's four core requests answered by `node:http` and `node:sqlite`
// alone, on a copy of the same seeded database: no framework, authentication, validation, events or
// presenters; each request is the fewest prepared statements that can answer it. No real service
// can beat it, so run.ts prints Cairn's figures as a ratio to it: what Cairn's layers cost.
//
//   node bench/floor.ts <sqlite file>     prints "listening at http://127.0.0.1:<port>"
//
// The requests, on the paths Cairn serves them (the bench sends both servers the same requests):
// - GET /v1/tasks/<uuid>: the task with its status, team, project and assignee (one joined query);
// - GET /v1/tasks/search?projectId=…&limit=50: a project's newest 50 live tasks and their count;
// - GET /v1/tasks/search?name=…&description=…&matchMode=any: the newest 50 matches of either field,
//   no total and no tiers, from the same workspace-prefixed FTS5 index Cairn writes (rowid = seq, so
//   the newest first is a walk of the index). Not bm25: ranking every match costs what Cairn never
//   pays (3 requests/s for two common words), and a floor does the least work that answers;
// - POST /v1/tasks {name, teamId, description}: the row and its FTS5 entry in one transaction, at
//   `synchronous = full`, answered with the row.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { DatabaseSync } from 'node:sqlite';

const path = process.argv[2];
if (!path) throw new Error('usage: node bench/floor.ts <sqlite file>');
const db = new DatabaseSync(path);
db.exec('pragma journal_mode = wal; pragma synchronous = full; pragma busy_timeout = 5000');

const workspace = db.prepare('select id, code from workspaces limit 1').get() as { id: string; code: number };
const ws = workspace.id;
const prefix = workspace.code.toString(36).padStart(6, '0');

const getTask = db.prepare(`
  select t.*, s.name as status_name, s.stage as status_stage, g.name as team_name, g.public_id as team_key,
    p.name as project_name, p.public_id as project_key, u.name as assignee_name, u.email as assignee_email
  from tasks t
  join task_statuses s on s.workspace_id = t.workspace_id and s.id = t.status_id
  join groups g on g.workspace_id = t.workspace_id and g.id = t.group_id
  left join projects p on p.workspace_id = t.workspace_id and p.id = t.project_id
  left join users u on u.workspace_id = t.workspace_id and u.id = t.assigned_to_id
  where t.workspace_id = ? and t.id = ?`);
const projectPage = db.prepare(`
  select * from tasks where workspace_id = ? and project_id = ? and deleted_at is null
  order by seq desc limit ?`);
const projectCount = db.prepare(
  'select count(*) as n from tasks where workspace_id = ? and project_id = ? and deleted_at is null',
);
const ranked = db.prepare(`
  select rowid from tasks_fts where tasks_fts match ? order by rowid desc limit 50`);
const bySeq = db.prepare(
  `select * from tasks where workspace_id = ? and seq in (select value from json_each(?))`,
);
const firstStatus = db.prepare(
  'select id from task_statuses where workspace_id = ? and group_id = ? order by position limit 1',
);
const nextPublicId = db.prepare(
  'select coalesce(max(public_id), 0) + 1 as n from tasks where workspace_id = ?',
);
const insertTask = db.prepare(`
  insert into tasks (workspace_id, id, public_id, name, description_html, description_markdown, priority,
    visibility, created_by_id, group_id, status_id, created_at, updated_at)
  values (?, ?, ?, ?, ?, ?, 0, 'workspace', ?, ?, ?, ?, ?) returning *`);
const insertFts = db.prepare('insert into tasks_fts (rowid, name, description, tags) values (?, ?, ?, ?)');
const owner = (
  db.prepare("select id from users where workspace_id = ? and role = 'owner' limit 1").get(ws) as {
    id: string;
  }
).id;

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function words(text: string | null): string[] {
  return (text ?? '')
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

function search(url: URL): unknown {
  const projectId = url.searchParams.get('projectId');
  if (projectId) {
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const data = projectPage.all(ws, projectId, limit);
    const { n } = projectCount.get(ws, projectId) as { n: number };
    return { data, total: n };
  }
  const fields = ['name', 'description']
    .map((field) => words(url.searchParams.get(field)).map((w) => `${field} : "${prefix}${w}"*`))
    .filter((terms) => terms.length > 0)
    .map((terms) => `(${terms.join(' AND ')})`);
  if (fields.length === 0) return { data: [] };
  const seqs = (ranked.all(fields.join(' OR ')) as { rowid: number }[]).map((r) => r.rowid);
  return { data: bySeq.all(ws, JSON.stringify(seqs)) };
}

function create(body: { name: string; teamId: string; description?: string }): unknown {
  const status = firstStatus.get(ws, body.teamId) as { id: string } | undefined;
  if (!status) return undefined;
  const now = new Date().toISOString();
  db.exec('begin immediate');
  try {
    const { n } = nextPublicId.get(ws) as { n: number };
    const description = body.description ?? '';
    const row = insertTask.get(
      ws,
      randomUUID(),
      n,
      body.name,
      `<p>${description}</p>`,
      description,
      owner,
      body.teamId,
      status.id,
      now,
      now,
    ) as { seq: number };
    const indexed = (text: string) =>
      words(text)
        .map((w) => prefix + w)
        .join(' ');
    insertFts.run(row.seq, indexed(body.name), indexed(description), `${prefix}g${body.teamId}`);
    db.exec('commit');
    return row;
  } catch (error) {
    db.exec('rollback');
    throw error;
  }
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://floor');
  if (req.method === 'GET' && url.pathname === '/v1/tasks/search') return send(res, 200, search(url));
  if (req.method === 'GET' && url.pathname.startsWith('/v1/tasks/')) {
    const task = getTask.get(ws, url.pathname.slice('/v1/tasks/'.length));
    return task ? send(res, 200, task) : send(res, 404, { code: 'not_found' });
  }
  if (req.method === 'POST' && url.pathname === '/v1/tasks') {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const row = create(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    return row ? send(res, 201, row) : send(res, 404, { code: 'not_found' });
  }
  send(res, 404, { code: 'not_found' });
}

const server = createServer((req, res) => {
  handle(req, res).catch((error) => send(res, 500, { error: String(error) }));
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`listening at http://127.0.0.1:${address.port}`);
});
process.on('SIGTERM', () => server.close(() => db.close()));
