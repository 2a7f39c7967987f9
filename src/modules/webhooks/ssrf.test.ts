import assert from 'node:assert/strict';
import { test } from 'node:test';
import { retryAfterSeconds } from './deliver.ts';
import { backoffMs, givesUp } from './schedule.ts';
import { checkLiteral, HookUrlError, isRefusedAddress, parseHookUrl } from './ssrf.ts';

test('internal addresses are refused, public ones are not', () => {
  for (const a of [
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '100.64.0.1',
    '100.127.255.255',
    '169.254.169.254',
    '0.0.0.0',
    '224.0.0.251',
    '255.255.255.255',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:8.8.8.8',
    '::ffff:a9fe:a9fe',
    'fd00:ec2::254',
    'fc00::1',
    'fe80::1',
    'ff02::1',
    '64:ff9b::7f00:1',
    '2002:7f00:1::',
    'not-an-address',
  ]) {
    assert.equal(isRefusedAddress(a), true, a);
  }
  for (const a of [
    '8.8.8.8',
    '1.1.1.1',
    '100.128.0.1',
    '172.32.0.1',
    '2606:4700:4700::1111',
    '2a00:1450::1',
  ]) {
    assert.equal(isRefusedAddress(a), false, a);
  }
});

test('IPv4 inside IPv6 is refused however it is written, and Teredo and 6to4 whole', () => {
  for (const a of [
    '::ffff:7f00:1',
    '::FFFF:7F00:0001',
    '0:0:0:0:0:ffff:127.0.0.1',
    '0000:0000:0000:0000:0000:ffff:7f00:0001',
    '0:0:0:0:0:FFFF:169.254.169.254',
    '::ffff:0:7f00:1', // IPv4-translated
    '::ffff:0:127.0.0.1',
    '::ffff:0:8.8.8.8',
    '::127.0.0.1', // IPv4-compatible
    '64:ff9b::127.0.0.1',
    '2001::1', // Teredo
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '2001:0000:4136:e378:8000:63bf:80ff:fffe', // Teredo to 127.0.0.1
    '2001:2::1', // benchmarking
    '2002:0808:0808::1', // 6to4, even of a public address
    '2002:a9fe:a9fe::',
    '3fff::1',
    '5f00::1',
  ]) {
    assert.equal(isRefusedAddress(a), true, a);
  }
  for (const a of ['2001:4860:4860::8888', '2001:200::1', '2003::1', '2a03:2880::1']) {
    assert.equal(isRefusedAddress(a), false, a);
  }
  for (const host of ['[::ffff:7f00:1]', '[0:0:0:0:0:ffff:127.0.0.1]', '[::ffff:0:7f00:1]', '[2001::1]']) {
    assert.throws(() => checkLiteral(parseHookUrl(`http://${host}/`)), HookUrlError, host);
  }
});

test('numeric host forms become the dotted address they mean before any check', () => {
  for (const host of ['2130706433', '0x7f.1', '0177.0.0.1', '127.1', '0x7f000001']) {
    assert.equal(parseHookUrl(`http://${host}/`).hostname, '127.0.0.1', host);
  }
  assert.throws(() => parseHookUrl('ftp://example.com/'));
  assert.throws(() => parseHookUrl('example.com/hook'));
});

test('retries: about 5 s, 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, then daily; Retry-After wins', () => {
  const mid = () => 0.5;
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 20].map((n) => backoffMs(n, undefined, mid) / 1000),
    [5, 60, 300, 1800, 7200, 18000, 36000, 86400, 86400, 86400],
  );
  assert.equal(
    backoffMs(1, undefined, () => 0),
    4500,
  );
  assert.equal(
    backoffMs(1, undefined, () => 1),
    5500,
  );
  assert.equal(backoffMs(3, 30), 30_000);
  assert.equal(backoffMs(3, 0), 1000);
  assert.equal(backoffMs(3, 86400), 86_400_000);
  assert.equal(givesUp('2026-01-01T00:00:00.000Z', '2026-01-03T23:59:59.999Z'), false);
  assert.equal(givesUp('2026-01-01T00:00:00.000Z', '2026-01-04T00:00:00.000Z'), true);
});

test('a Retry-After that is negative, in the past, beyond a day or not a wait falls back to the backoff', () => {
  const mid = () => 0.5;
  for (const wait of [-1, -3600, 86401, 10 * 86400, Number.POSITIVE_INFINITY, Number.NaN]) {
    assert.equal(backoffMs(3, wait, mid), 300_000, String(wait));
  }
  const now = Date.parse('2026-11-24T12:00:00Z');
  assert.equal(retryAfterSeconds('120', now), 120);
  assert.equal(retryAfterSeconds(' 7 ', now), 7);
  assert.equal(retryAfterSeconds('Tue, 24 Nov 2026 12:01:00 GMT', now), 60);
  assert.equal(retryAfterSeconds('Tuesday, 24-Nov-26 12:01:00 GMT', now), 60);
  assert.equal(retryAfterSeconds('Tue Nov 24 12:01:00 2026', now), 60);
  assert.equal(retryAfterSeconds('Tue, 24 Nov 2026 11:00:00 GMT', now), -3600, 'in the past');
  for (const garbage of ['-5', '1.5', '5s', '', 'soon', '2026-11-24T12:01:00Z', '+3']) {
    assert.equal(retryAfterSeconds(garbage, now), undefined, garbage);
  }
  // What the worker computes from each: the answer's header through the schedule.
  for (const header of [
    '-5',
    'Tue, 24 Nov 2026 11:00:00 GMT',
    '99999999999',
    'Fri, 31 Dec 9999 23:59:59 GMT',
  ]) {
    assert.equal(backoffMs(3, retryAfterSeconds(header, now), mid), 300_000, header);
  }
});
