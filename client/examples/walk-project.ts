// Every task of a project, page after page (the client follows nextCursor).
// Run: CAIRN_URL=... CAIRN_TOKEN=... node examples/walk-project.ts <project id>
import { fileURLToPath } from 'node:url';
import { createClient } from '../src/index.ts';

export async function walkProject(baseUrl: string, token: string, projectId: string) {
  const cairn = createClient({ baseUrl, token });
  const names: string[] = [];
  for await (const task of cairn.paginate('searchTasks', { params: { query: { projectId } } })) {
    names.push(task.name);
    console.log(`#${task.publicId} ${task.status?.name ?? ''} ${task.name}`);
  }
  return names;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await walkProject(
    process.env.CAIRN_URL ?? 'http://localhost:8080',
    process.env.CAIRN_TOKEN ?? '',
    process.argv[2]!,
  );
}
