import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Auth, inSavepoint, inTransaction, perRequest } from '../context.ts';
import { withDatabase } from '../test/helpers.ts';
import type { Database } from './index.ts';
import { transaction } from './transaction.ts';

async function keys(database: Database): Promise<string[]> {
  const rows = await database.db.selectFrom('instance_settings').select('key').orderBy('key').execute();
  return rows.map((r) => r.key).filter((k) => k.startsWith('t-'));
}

const put = (db: Database['db'], key: string) =>
  db.insertInto('instance_settings').values({ key, value: '1' }).execute();

test('after-commit hooks run once the transaction committed, a hook registered twice once', async () => {
  await withDatabase(async (database) => {
    const ran: string[] = [];
    const hook = () => ran.push(`hook saw ${ran.length} before`);
    await transaction(database, async (tx) => {
      await put(tx.db, 't-a');
      tx.afterCommit(hook);
      tx.afterCommit(hook);
      tx.afterCommit(() => ran.push('second'));
      assert.deepEqual(ran, [], 'nothing runs before the commit');
    });
    assert.deepEqual(ran, ['hook saw 0 before', 'second']);
    assert.deepEqual(await keys(database), ['t-a']);
  });
});

test('a rolled-back transaction runs no hook; a retried attempt runs only the committed one', async () => {
  await withDatabase(async (database) => {
    const ran: number[] = [];
    await assert.rejects(
      transaction(database, async (tx) => {
        await put(tx.db, 't-gone');
        tx.afterCommit(() => ran.push(0));
        throw new Error('roll back');
      }),
      /roll back/,
    );
    let attempt = 0;
    await transaction(database, async (tx) => {
      attempt += 1;
      await put(tx.db, `t-attempt${attempt}`);
      tx.afterCommit(() => ran.push(attempt));
      // What PostgreSQL says of a deadlock: the whole transaction runs again.
      if (attempt === 1) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
    });
    assert.deepEqual(ran, [2]);
    assert.deepEqual(await keys(database), ['t-attempt2']);
  });
});

test('a savepoint that fails rolls back its writes and hooks alone, nested ones too', async () => {
  await withDatabase(async (database) => {
    const ran: string[] = [];
    await transaction(database, async (tx) => {
      await put(tx.db, 't-outer');
      await assert.rejects(
        tx.savepoint(async (inner) => {
          await put(inner.db, 't-failed');
          inner.afterCommit(() => ran.push('failed'));
          throw new Error('entry failed');
        }),
        /entry failed/,
      );
      // The database's own error (a duplicate key), after which PostgreSQL refuses every statement
      // until the savepoint is rolled back.
      await assert.rejects(tx.savepoint((inner) => put(inner.db, 't-outer')));
      await tx.savepoint(async (inner) => {
        await put(inner.db, 't-kept');
        inner.afterCommit(() => ran.push('kept'));
        await assert.rejects(
          inner.savepoint(async (deepest) => {
            await put(deepest.db, 't-deepest');
            throw new Error('nested failed');
          }),
          /nested failed/,
        );
      });
      // The same depth again, after a rollback and a release: a fresh savepoint.
      await tx.savepoint((inner) => put(inner.db, 't-after'));
    });
    assert.deepEqual(ran, ['kept']);
    assert.deepEqual(await keys(database), ['t-after', 't-kept', 't-outer']);
  });
});

test('inSavepoint forgets the request memos after its rollback; outside a transaction it refuses', async () => {
  await withDatabase(async (database) => {
    const auth: Auth = {
      workspace: { id: '00000000-0000-4000-8000-000000000001', name: 'W', code: 1 },
      actor: {
        id: '00000000-0000-4000-8000-000000000002',
        name: 'A',
        email: 'a@x',
        role: 'owner',
        tokenId: 't',
      },
    };
    let loads = 0;
    const memo = (ctx: { actor: Auth['actor'] }) => perRequest(ctx, 'k', async () => ++loads);
    await inTransaction(database, auth, async (ctx) => {
      assert.equal(await memo(ctx), 1);
      await assert.rejects(
        inSavepoint(ctx, async (entry) => {
          assert.equal(await memo(entry), 1, 'a memo read before the savepoint is kept in it');
          throw new Error('entry failed');
        }),
      );
      assert.equal(await memo(ctx), 2, 'read again after the rollback');
    });
    await assert.rejects(
      inSavepoint(
        { ...auth, db: database.db, dialect: database.dialect, search: database.search },
        async () => 1,
      ),
      /needs a transaction/,
    );
  });
});
