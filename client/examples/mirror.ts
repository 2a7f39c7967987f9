// A local mirror of a workspace's tasks, kept in sync through the events feed across restarts: the
// tasks and the feed position live in one JSON file, written after each page is applied.
// Run: CAIRN_URL=... CAIRN_TOKEN=... node examples/mirror.ts mirror.json
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  type CairnClient,
  createClient,
  FeedPositionExpired,
  latestPosition,
  type Schema,
  syncEvents,
} from '../src/index.ts';

type Task = Schema<'Task'>;
interface State {
  position: string;
  tasks: Record<string, Task>;
}

/** Everything from scratch: the position first (nothing after it is missed), then every task. */
async function fullWalk(cairn: CairnClient): Promise<State> {
  const position = await latestPosition(cairn);
  const tasks: Record<string, Task> = {};
  const query = { includeDeleted: 'true' as const };
  for await (const task of cairn.paginate('searchTasks', { params: { query } }))
    tasks[task.id] = task as Task;
  return { position, tasks };
}

/** Brings the mirror in `file` up to date; returns it. Run it on a timer, or when a webhook arrives. */
export async function syncMirror(baseUrl: string, token: string, file: string): Promise<State> {
  const cairn = createClient({ baseUrl, token });
  let state: State = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : await fullWalk(cairn);
  const save = () => writeFileSync(file, JSON.stringify(state));
  save();
  try {
    for await (const page of syncEvents(cairn, {
      from: state.position,
      types: ['task.created', 'task.updated', 'task.deleted', 'task.restored'],
    })) {
      // Each event's data is the task as it was then (deleted ones with deletedAt): keep the latest.
      for (const event of page.events) state.tasks[(event.data as Task).id] = event.data as Task;
      state.position = page.position;
      save();
    }
  } catch (error) {
    if (!(error instanceof FeedPositionExpired)) throw error;
    // Away longer than the server keeps events: what changed meanwhile is unknown, so start again.
    state = await fullWalk(cairn);
    save();
  }
  return state;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const state = await syncMirror(
    process.env.CAIRN_URL ?? 'http://localhost:8080',
    process.env.CAIRN_TOKEN ?? '',
    process.argv[2] ?? 'mirror.json',
  );
  console.log(`${Object.keys(state.tasks).length} tasks, at ${state.position}`);
}
