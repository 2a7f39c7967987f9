// Rate limits (decisions §8): a budget per API token, and per client address for requests without a
// valid token, counted by @fastify/rate-limit in memory, or in Redis when REDIS_URL is set so that
// every process shares one budget. Every /v1 answer carries RateLimit-Limit, RateLimit-Remaining and
// RateLimit-Reset; over budget is 429 rate_limited with Retry-After. Health checks and the API
// description are not limited (a load balancer must always reach /readyz).
//
// The limit runs after authentication has looked at the token (auth.ts) but before a failed
// authentication is answered, so that guessing tokens spends the address's budget.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { AppError } from './errors.ts';

const WINDOW_MS = 60_000;

function keyOf(request: FastifyRequest): string {
  return request.auth ? `token:${request.auth.actor.tokenId}` : `address:${request.ip}`;
}

export async function registerRateLimit(app: FastifyInstance, config: Config): Promise<void> {
  // A Redis that is down or slow must not take the API with it: counting is skipped (logged) then.
  // ioredis is loaded only when it is used: importing it costs a server ~26 MB of memory.
  const redis = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, { connectTimeout: 500, maxRetriesPerRequest: 1 })
    : undefined;
  if (redis) {
    redis.on('error', (error) => app.log.warn({ err: error }, 'rate limit store (Redis) unavailable'));
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  }
  await app.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    timeWindow: WINDOW_MS,
    max: (request) => (request.auth ? config.rateLimit : config.rateLimitUnauthenticated),
    keyGenerator: keyOf,
    allowList: (request) => !request.routeOptions.url?.startsWith('/v1/'),
    ...(redis ? { redis, nameSpace: 'cairn-rate-limit:' } : {}),
    skipOnError: true,
    enableDraftSpec: true,
    errorResponseBuilder: (request, context) =>
      new AppError(
        'rate_limited',
        request.auth
          ? `This API token made more than ${context.max} requests in a minute; retry in ${context.after}`
          : `Too many requests without a valid API token from this address; retry in ${context.after}`,
      ),
  });
}
