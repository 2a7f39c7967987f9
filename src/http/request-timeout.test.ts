// A client has CAIRN_REQUEST_TIMEOUT_MS to send a whole request (app.ts): one that sends its body too
// slowly is answered 400 and its connection closed, and nothing of the request is written. Tested on a
// real socket (injected requests have none), with the limit set short.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { setup } from '../test/helpers.ts';

const f = await setup(undefined, { CAIRN_REQUEST_TIMEOUT_MS: '300' });
const team = (await f.owner.post('/v1/teams', { name: 'Slow' })).body;

test('a body sent too slowly is a 400 and a closed connection; nothing is written', async () => {
  const address = await f.app.listen({ port: 0, host: '127.0.0.1' });
  const socket = connect(Number(new URL(address).port), '127.0.0.1');
  try {
    await once(socket, 'connect');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk;
    });
    const closed = once(socket, 'close').then(() => 'closed');
    const body = JSON.stringify({ name: 'Never finished', teamId: team.id });
    const started = Date.now();
    socket.write(
      `POST /v1/tasks HTTP/1.1\r\nHost: cairn.test\r\nAuthorization: Bearer ${f.ws.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    // The limit, plus up to the second between Node's checks.
    assert.equal(await Promise.race([closed, delay(5_000, 'still open')]), 'closed');
    const took = Date.now() - started;
    assert.ok(took >= 250, `closed after ${took} ms`);
    assert.match(received, /^HTTP\/1\.1 400 /);
    const problem = JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4));
    assert.equal(problem.code, 'validation_failed');
    assert.equal(problem.detail, 'The request was not received in time');
    const found = await f.owner.get('/v1/tasks/search?name=never&expand=none');
    assert.equal(found.body.total, 0);
    // A request sent in time on a new connection is answered as usual.
    const fine = await fetch(`${address}/v1/tasks?expand=none`, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.ws.token}`, 'content-type': 'application/json' },
      body,
    });
    assert.equal(fine.status, 201);
  } finally {
    socket.destroy();
    f.app.server.closeAllConnections();
    await f.app.server.close();
  }
});
