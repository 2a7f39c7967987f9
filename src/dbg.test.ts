import { test } from 'node:test';
import { setup } from './test/helpers.ts';
import { openStream } from './test/sse.ts';

const f = await setup(undefined, { CAIRN_STREAM_HEARTBEAT_MS: '100' });
await f.app.listen({ host: '127.0.0.1', port: 0 });
const base = `http://127.0.0.1:${(f.app.server.address() as any).port}`;
test('x', async () => {
  const s = await openStream(base, f.ws.token);
  await s.next();
  const r = await fetch(`${base}/v1/events/stream`);
  await r.text();
  const t = Date.now();
  const closing = f.app.close().then(() => console.log('closed', Date.now() - t));
  await s.ended;
  console.log('ended', Date.now() - t);
  await closing;
});
