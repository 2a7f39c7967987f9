// The README's quickstart: who am I, a team to work in, the first task.
// Run: CAIRN_URL=http://localhost:8080 CAIRN_TOKEN=... node examples/quickstart.ts
// (In your own project, import from '@cairn/client'.)
import { fileURLToPath } from 'node:url';
import { createClient } from '../src/index.ts';

export async function quickstart(baseUrl: string, token: string) {
  const cairn = createClient({ baseUrl, token });
  const me = await cairn.getMe();
  const teams = await cairn.searchTeams({ params: { query: { limit: 1 } } });
  const team = teams.data[0] ?? (await cairn.upsertTeam({ body: { name: 'My team' } }));
  const task = await cairn.upsertTask({ body: { name: 'My first task', teamId: team.id } });
  console.log(`${me.name} made task #${task.publicId} "${task.name}" in ${team.name}`);
  return task;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await quickstart(process.env.CAIRN_URL ?? 'http://localhost:8080', process.env.CAIRN_TOKEN ?? '');
}
