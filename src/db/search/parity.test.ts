// The same data on SQLite and PostgreSQL must give the same search results (docs/decisions.md §5). Runs once,
// in the SQLite pass, when TEST_POSTGRES_URL is set (CI always sets it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { onPostgres, setup } from '../../test/helpers.ts';

// Both databases in one test: registered in the SQLite pass only (the PostgreSQL pass would repeat
// it), and skipped, saying why, when there is no PostgreSQL to compare with.
const parity = onPostgres ? () => {} : test;
const skip = !process.env.TEST_POSTGRES_URL && 'needs TEST_POSTGRES_URL';

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

parity(
  'team search gives the same results on SQLite and PostgreSQL',
  {
    skip,
  },
  async () => {
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
  },
);

parity(
  'task, project and document search give the same results on SQLite and PostgreSQL',
  {
    skip,
  },
  async () => {
    const sqlite = await setup('sqlite');
    const postgres = await setup('postgres');
    const vocabulary = [
      'rocket',
      'café',
      'ﬁnance',
      'Straße',
      'naïve',
      'widget',
      'launch',
      'Résumé',
      'data-science',
      '東京',
    ];
    // The same searches as the owner, as a member (who does not see the private team) and as a guest
    // (who sees only the team it belongs to): the visibility rules must agree across databases too.
    const callers = { sqlite: [sqlite.owner], postgres: [postgres.owner] };
    for (const [fx, as] of [
      [sqlite, callers.sqlite],
      [postgres, callers.postgres],
    ] as const) {
      const add = async (url: string, body: unknown) => {
        const res = await fx.owner.post(url, body);
        assert.ok(res.status === 201 || res.status === 200, JSON.stringify(res.body));
        return res.body;
      };
      const people = [await fx.newUser('member', 'Zoë Ångström'), await fx.newUser('member', 'Bob Builder')];
      const guest = await fx.newUser('guest', 'Gail Guest');
      as.push(people[0]!.api, guest.api);
      const teams = [
        await add('/v1/teams', { name: 'Rocket Team', members: [{ id: guest.id }] }),
        await add('/v1/teams', { name: 'Café Crew' }),
        await add('/v1/teams', { name: 'Vault Rocket', privacy: 'private' }),
      ];
      const projects = [
        await add('/v1/projects', { name: 'Launch Café', teamId: teams[0].id, description: 'ﬁnance data' }),
        await add('/v1/projects', { name: 'Widget Résumé', teamId: teams[1].id, ownerId: people[0]!.id }),
        await add('/v1/projects', { name: 'Vault Launch', teamIds: [teams[2].id, teams[0].id] }),
      ];
      for (let i = 0; i < 60; i++) {
        const w = (k: number) => vocabulary[(i * 7 + k * 3) % vocabulary.length];
        await add('/v1/tasks', {
          name: `${w(0)} ${w(1)} task ${i}`,
          description: `${w(2)} and ${w(3)}`,
          teamId: teams[i % 3].id,
          ...(i % 3 ? { projectId: projects[(i * 5) % 3].id } : {}),
          ...(i % 4 === 0 ? { assignedToId: people[i % 2]!.id } : {}),
          ...(i % 10 === 0 ? { visibility: 'private' } : {}),
        });
      }
      for (let i = 0; i < 24; i++) {
        const w = (k: number) => vocabulary[(i * 5 + k * 3) % vocabulary.length];
        await add('/v1/documents', {
          name: `${w(0)} ${w(1)} doc ${i}`,
          description: `${w(2)} and ${w(3)}`,
          teamId: teams[i % 3].id,
          ...(i % 7 === 0 ? { visibility: 'private' } : {}),
        });
      }
    }
    const queries = [
      'name=rocket',
      'name=CAFE',
      'name=finance&description=naive',
      'name=finance&description=naive&matchMode=any',
      'name=strasse',
      'name=straße+task',
      'description=data+sci',
      'projectName=launch',
      'projectName=widget&name=rocket&matchMode=any',
      'teamName=crew',
      'assigneeName=zoe+angstrom',
      'assigneeName=bob&description=resume&matchMode=any',
      'name=東京',
      'name=task&teamName=rocket&matchMode=any',
      'projectName=vault',
      'teamName=vault&name=rocket&matchMode=any',
      '',
    ];
    const seen = new Map<string, number>();
    for (const [i, who] of ['owner', 'member', 'guest'].entries()) {
      for (const q of queries) {
        const url = `/v1/tasks/search?expand=none&limit=100&${q}`;
        const [a, b] = await Promise.all([callers.sqlite[i]!.get(url), callers.postgres[i]!.get(url)]);
        assert.equal(a.status, 200);
        assert.equal(b.status, 200);
        const names = (r: typeof a) => r.body.data.map((t: { name: string }) => t.name);
        assert.deepEqual(names(a), names(b), `tasks as ${who}: ${q}`);
        assert.equal(a.body.total, b.body.total, `total of tasks as ${who}: ${q}`);
        assert.equal(a.body.total, a.body.data.length, `total of tasks as ${who}: ${q}`);
        seen.set(who, (seen.get(who) ?? 0) + (a.body.total > 0 ? 1 : 0));
      }
    }
    assert.ok(seen.get('owner')! >= 15, `only ${seen.get('owner')} task queries matched as owner`);
    assert.ok(seen.get('member')! >= 12, `only ${seen.get('member')} task queries matched as member`);
    assert.ok(seen.get('guest')! >= 6, `only ${seen.get('guest')} task queries matched as guest`);
    for (const q of [
      'name=cafe',
      'description=finance',
      'ownerName=zoe',
      'teamName=crew&name=widget&matchMode=any',
    ]) {
      const url = `/v1/projects/search?expand=none&${q}`;
      const [a, b] = await Promise.all([sqlite.owner.get(url), postgres.owner.get(url)]);
      const names = (r: typeof a) => r.body.data.map((p: { name: string }) => p.name);
      assert.deepEqual(names(a), names(b), `projects: ${q}`);
      assert.equal(a.body.total, 1, `projects total: ${q}`);
    }
    for (const [i, who] of ['owner', 'member', 'guest'].entries()) {
      for (const q of [
        'name=launch',
        'teamName=vault',
        'teamName=rocket',
        'name=widget&teamName=vault&matchMode=any',
      ]) {
        const url = `/v1/projects/search?expand=teams&${q}`;
        const [a, b] = await Promise.all([callers.sqlite[i]!.get(url), callers.postgres[i]!.get(url)]);
        const shape = (r: typeof a) =>
          r.body.data.map((p: { name: string; teams: { name: string }[] }) => [
            p.name,
            p.teams.map((t) => t.name),
          ]);
        assert.deepEqual(shape(a), shape(b), `projects as ${who}: ${q}`);
        assert.equal(a.body.total, b.body.total, `projects total as ${who}: ${q}`);
      }
      let matched = 0;
      for (const q of [
        'name=rocket',
        'name=CAFE&description=finance',
        'name=strasse&description=naive&matchMode=any',
        'teamName=vault',
        'teamName=crew&name=東京&matchMode=any',
        '',
      ]) {
        // Sorted: documents changed in the same millisecond are ordered by their (random) ids.
        const url = `/v1/documents/search?expand=none&limit=100&${q}`;
        const [a, b] = await Promise.all([callers.sqlite[i]!.get(url), callers.postgres[i]!.get(url)]);
        const names = (r: typeof a) => r.body.data.map((d: { name: string }) => d.name).sort();
        assert.deepEqual(names(a), names(b), `documents as ${who}: ${q}`);
        assert.equal(a.body.total, b.body.total, `documents total as ${who}: ${q}`);
        assert.equal(a.body.total, a.body.data.length, `documents total as ${who}: ${q}`);
        if (a.body.total > 0) matched += 1;
      }
      assert.ok(matched >= (who === 'guest' ? 3 : 4), `only ${matched} document queries matched as ${who}`);
    }
  },
);
