// Failed sign-ins are limited per account and per address (docs/api.md "Sessions"): after
// CAIRN_SIGN_IN_ACCOUNT_FAILURES failures for one email, or CAIRN_SIGN_IN_ADDRESS_FAILURES from one
// address, within CAIRN_SIGN_IN_LOCKOUT_SECONDS, further attempts are 429 with Retry-After for that
// many seconds from the last failure, whether or not the password would be right.
//
// The counters are rate-limiter-flexible's: in memory, or in Redis when REDIS_URL is set so that every
// process shares them (its Lua script makes each count atomic). @fastify/rate-limit, which counts the
// API's requests, counts every request of a route; here only failures count, and a success clears
// the account's count, which that library cannot express. When Redis fails, each process counts in
// memory until it is back (the library's insurance limiter): a lockout never fails open.
//
// An email's counter exists whether or not the email is anyone's, so a lockout says nothing about
// which accounts exist. Keys are the email's SHA-256, so Redis holds no addresses of people.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';

export interface LockoutSettings {
  accountFailures: number;
  addressFailures: number;
  lockoutSeconds: number;
}

export interface Locked {
  scope: 'account' | 'address';
  retryAfterSeconds: number;
}

export interface Lockout {
  /** Whether attempts for this email or from this address are refused now, and for how long. */
  lockedFor(email: string, address: string): Promise<Locked | undefined>;
  /** Counts a failure for both; the one that reaches its limit is locked for the whole lockout. */
  failed(email: string, address: string): Promise<void>;
  /** A success: the account's failures are forgotten (the address's are not). */
  succeeded(email: string): Promise<void>;
}

interface Counter {
  limiter: RateLimiterAbstract;
  limit: number;
}

const accountKey = (email: string) => createHash('sha256').update(email).digest('hex');

export function createLockout(settings: LockoutSettings, redis?: Redis): Lockout {
  // The library is loaded with the first sign-in: a server that never sees one does not pay for it.
  let counters: Promise<{ account: Counter; address: Counter }> | undefined;
  const load = () => {
    counters ??= (async () => {
      const { RateLimiterMemory, RateLimiterRedis } = await import('rate-limiter-flexible');
      const make = (scope: string, limit: number): Counter => {
        const options = {
          keyPrefix: `cairn-sign-in-${scope}`,
          points: limit,
          duration: settings.lockoutSeconds,
        };
        const memory = new RateLimiterMemory(options);
        const limiter = redis
          ? new RateLimiterRedis({
              ...options,
              storeClient: redis,
              insuranceLimiter: memory,
              rejectIfRedisNotReady: true,
            })
          : memory;
        return { limiter, limit };
      };
      return {
        account: make('account', settings.accountFailures),
        address: make('address', settings.addressFailures),
      };
    })();
    return counters;
  };

  const lockedOn = async ({ limiter, limit }: Counter, key: string) => {
    const res = await limiter.get(key);
    return res && res.consumedPoints >= limit ? Math.max(1, Math.ceil(res.msBeforeNext / 1000)) : 0;
  };
  const count = async ({ limiter, limit }: Counter, key: string) => {
    const res = await limiter.penalty(key);
    if (res.consumedPoints >= limit) await limiter.block(key, settings.lockoutSeconds);
  };

  return {
    async lockedFor(email, address) {
      const { account, address: byAddress } = await load();
      const [forAccount, forAddress] = await Promise.all([
        lockedOn(account, accountKey(email)),
        lockedOn(byAddress, address),
      ]);
      if (forAccount > 0) return { scope: 'account', retryAfterSeconds: forAccount };
      if (forAddress > 0) return { scope: 'address', retryAfterSeconds: forAddress };
      return undefined;
    },
    async failed(email, address) {
      const { account, address: byAddress } = await load();
      await Promise.all([count(account, accountKey(email)), count(byAddress, address)]);
    },
    async succeeded(email) {
      const { account } = await load();
      await account.limiter.delete(accountKey(email));
    },
  };
}
