// The same data on SQLite and PostgreSQL must give the same search results (decisions §5). Runs once,
// in the SQLite pass, when TEST_POSTGRES_URL is set (CI always sets it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { onPostgres, setup } from '../../test/helpers.ts';

const both = !onPostgres && Boolean(process.env.TEST_POSTGRES_URL);

const NAMES = [
  'Café Crème',
  'cafe creme',
  'CAFÉ',
  'Ｗｉｄｅ Ｌｅｔｔｅｒｓ',
  'ﬁnance ﬂow', // ligatures: NFKC makes "finance flow"
  'Ångström Lab',
  'Straße Crew',
  'İstanbul Office',
  'naïve résumé',
  'Data-Science / ML',
  'x1 y2 z3',
  '東京 Team',
  'Ελληνικά Ομάδα',
  'Москва Группа',
  'emoji 🚀 rocket',
  'under_score team',
  "O'Brien's Crew",
  'Platform Reliability Engineering',
  'Platform',
  'Reliability',
];

const QUERIES = [
  'cafe',
  'CAFÉ creme',
  'wide',
  'let',
  'finance',
  'flow',
  'angstrom',
  'ang',
  'strasse',
  'straße',
  'istanbul',
  'naive',
  'resume',
  'data sci',
  'ml',
  'x1',
  'y',
  '東京',
  'ελληνικα',
  'москва',
  'rocket',
  '🚀',
  'under',
  'score',
  'obrien',
  "o'b",
  'brien',
  'plat rel',
  'platform reliability engineering',
  'p r e',
  'team',
  'nothing',
];

test('team search gives the same results on SQLite and PostgreSQL', {
  skip: !both && 'needs TEST_POSTGRES_URL',
}, async () => {
  const sqlite = await setup('sqlite');
  const postgres = await setup('postgres');
  for (const name of NAMES) {
    assert.equal((await sqlite.owner.post('/v1/teams', { name })).status, 201);
    assert.equal((await postgres.owner.post('/v1/teams', { name })).status, 201);
  }
  let nonEmpty = 0;
  for (const q of QUERIES) {
    for (const mode of ['all', 'any']) {
      const url = `/v1/teams/search?expand=none&limit=100&matchMode=${mode}&name=${encodeURIComponent(q)}`;
      const [a, b] = await Promise.all([sqlite.owner.get(url), postgres.owner.get(url)]);
      assert.equal(a.status, 200);
      assert.equal(b.status, 200);
      const namesOf = (r: typeof a) => r.body.data.map((t: { name: string }) => t.name).sort();
      assert.deepEqual(namesOf(a), namesOf(b), `query "${q}" (${mode})`);
      assert.equal(a.body.total, b.body.total, `total of "${q}"`);
      if (a.body.total > 0) nonEmpty += 1;
    }
  }
  // The comparison means something only if most queries find something.
  assert.ok(nonEmpty >= 40, `only ${nonEmpty} queries matched`);
});
