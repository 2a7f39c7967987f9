// Rate limits (docs/decisions.md §8): a budget per API token (per user for requests signed in with the
// session cookie), and per client address for requests without a valid credential, counted by
// @fastify/rate-limit in memory, or in Redis when REDIS_URL is set so that every process shares one
// budget. Every /v1 answer carries RateLimit-Limit, RateLimit-Remaining and
// RateLimit-Reset; over budget is 429 rate_limited with Retry-After. Health checks and the API
// description are not limited (a load balancer must always reach /readyz).
//
// The limit runs after authentication has looked at the token (auth.ts) but before a failed
// authentication is answered, so that guessing tokens spends the address's budget.
//
// Full-text searches (a `/search` route given any text to match) have a lower budget of their own per
// token (CAIRN_RATE_LIMIT_SEARCH): one costs the database far more than a read by id (a common word on
// PostgreSQL: ~0.4 s). A `/search` without text is a list, and counts as any other request.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { RESOURCES } from '../modules/registry.ts';
import { AppError } from './errors.ts';

const WINDOW_MS = 60_000;

/** Query fields holding text to match, across the search routes (each resource declares its own). */
const TEXT_FIELDS = [...new Set(RESOURCES.flatMap((r) => r.searchFields))];

function isTextSearch(request: FastifyRequest): boolean {
  if (!request.routeOptions.url?.endsWith('/search')) return false;
  const query = request.query as Record<string, unknown> | undefined;
  return TEXT_FIELDS.some((field) => {
    const value = query?.[field];
    return typeof value === 'string' ? value.trim() !== '' : Array.isArray(value);
  });
}

/**
 * Whose budget a request spends: its API token's, or, signed in with the session cookie, its user's
 * (every session of one person shares one budget, so signing in again does not buy another), or its
 * address's without a valid credential.
 */
function keyOf(request: FastifyRequest): string {
  if (!request.auth) return `address:${request.ip}`;
  const search = isTextSearch(request);
  if (request.auth.session) return `${search ? 'search-user' : 'user'}:${request.auth.actor.id}`;
  return `${search ? 'search' : 'token'}:${request.auth.actor.tokenId}`;
}

/**
 * The Redis client the rate limits share (this file's and the sign-in lockout's,
 * modules/auth/lockout.ts), or undefined without REDIS_URL; closed with the app. A Redis that is down
 * or slow must not take the API with it: each command fails fast (logged).
 */
export async function openRateLimitStore(app: FastifyInstance, config: Config): Promise<Redis | undefined> {
  if (!config.redisUrl) return undefined;
  // ioredis is loaded only when it is used: importing it costs a server ~26 MB of memory.
  const redis = new (await import('ioredis')).Redis(config.redisUrl, {
    connectTimeout: 500,
    maxRetriesPerRequest: 1,
  });
  redis.on('error', (error) => app.log.warn({ err: error }, 'rate limit store (Redis) unavailable'));
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  return redis;
}

function whose(request: FastifyRequest): string {
  return request.auth?.session ? 'user (signed in)' : 'API token';
}

export async function registerRateLimit(
  app: FastifyInstance,
  config: Config,
  redis: Redis | undefined,
): Promise<void> {
  // Counting is skipped (logged) while Redis does not answer.
  await app.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    timeWindow: WINDOW_MS,
    max: (request, key) =>
      !request.auth
        ? config.rateLimitUnauthenticated
        : key.startsWith('search')
          ? config.rateLimitSearch
          : config.rateLimit,
    keyGenerator: keyOf,
    allowList: (request) => !request.routeOptions.url?.startsWith('/v1/'),
    ...(redis ? { redis, nameSpace: 'cairn-rate-limit:' } : {}),
    skipOnError: true,
    enableDraftSpec: true,
    errorResponseBuilder: (request, context) =>
      new AppError(
        'rate_limited',
        !request.auth
          ? `Too many requests without a valid API token from this address; retry in ${context.after}`
          : isTextSearch(request)
            ? `This ${whose(request)} made more than ${context.max} text searches in a minute (searches have their own budget); retry in ${context.after}`
            : `This ${whose(request)} made more than ${context.max} requests in a minute; retry in ${context.after}`,
      ),
  });
}
