// Builds the Fastify application: shared conventions first (ids, errors, auth, validation, OpenAPI),
// then one plugin per module. main.ts starts it; tests drive it through app.inject.
import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { type Config, metricsOn } from './config.ts';
import type { Database } from './db/index.ts';
import { cursorSecret } from './db/settings.ts';
import type { App } from './http/app-type.ts';
import { registerAuth } from './http/auth.ts';
import { clientErrorHandler } from './http/client-errors.ts';
import { API_DESCRIPTION, registerConventions } from './http/conventions.ts';
import { createCursors } from './http/cursor.ts';
import { documentObject, documentRoute } from './http/document.ts';
import { registerErrorHandling, sendProblem } from './http/error-handler.ts';
import { AppError } from './http/errors.ts';
import { registerEtags } from './http/etag.ts';
import { registerIdempotency } from './http/idempotency.ts';
import { BODY_LIMIT, registerJsonBodies } from './http/json-body.ts';
import { RequestLifecycle } from './http/lifecycle.ts';
import { openRateLimitStore, registerRateLimit } from './http/rate-limit.ts';
import { registerRichText } from './http/rich-text.ts';
import { Problem } from './http/schemas.ts';
import { buildSerializer } from './http/serialization.ts';
import { buildValidator } from './http/validation.ts';
import { registerWebApp } from './http/web-app.ts';
import { loggerOptions } from './log.ts';
import { createMailer } from './mail/mailer.ts';
import { registerMetricsRoute } from './metrics/http.ts';
import apiTokenRoutes from './modules/api-tokens/routes.ts';
import recoveryRoutes from './modules/auth/recovery-routes.ts';
import authRoutes from './modules/auth/routes.ts';
import { SESSION_COOKIE } from './modules/auth/sessions.ts';
import collectionRoutes from './modules/collections/routes.ts';
import eventRoutes from './modules/events/routes.ts';
import streamRoutes from './modules/events/stream-routes.ts';
import healthRoutes from './modules/health/routes.ts';
import invitationRoutes from './modules/invitations/routes.ts';
import projectStatusRoutes from './modules/project-statuses/routes.ts';
import { Project } from './modules/projects/schema.ts';
import { RESOURCES } from './modules/registry.ts';
import { Task } from './modules/tasks/schema.ts';
import webhookRoutes from './modules/webhooks/routes.ts';
import { setRenderBudget } from './text/render-pool.ts';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface BuildOptions {
  config: Config;
  database: Database;
  /** false for tests; otherwise pino JSON lines at config.logLevel. */
  logger?: boolean;
}

export async function buildApp({ config, database, logger = true }: BuildOptions): Promise<App> {
  const app = createFastify(config, logger);
  app.decorate('cairn', { config, database, cursors: createCursors(await cursorSecret(database.db)) });
  app.addSchema(Problem);
  // Resources another module answers with (a task made from a template, a project from one): shared
  // from the root, where every plugin sees them.
  app.addSchema(Task);
  app.addSchema(Project);
  registerErrorHandling(app);

  // The request id's header, the request's log line and its metrics: http/lifecycle.ts.
  if (metricsOn(config)) registerMetricsRoute(app, config);

  registerJsonBodies(app);
  // Cookies are parsed for the session (modules/auth/sessions.ts); nothing else reads them.
  await app.register(cookie);
  registerConventions(app, config.publicUrl);
  // Before the routes: the OpenAPI document is gathered as they are added.
  await registerOpenApi(app, config);

  registerAuth(app, database, config.publicUrl);
  registerEtags(app);
  registerIdempotency(app, database);
  setRenderBudget(config.renderBudgetMs);
  registerRichText(app);
  const redis = await openRateLimitStore(app, config);
  await registerRateLimit(app, config, redis);

  await registerModules(app, config, redis);
  await registerDocs(app);
  // Last: the web app's pages answer the GETs that nothing above did (http/web-app.ts).
  await registerWebApp(app);
  return app as unknown as App;
}

function createFastify(config: Config, logger: boolean) {
  return Fastify({
    // Without logs, a silent logger rather than none: Fastify tells the log controller a request is
    // complete only where it has a logger, and the metrics count there (http/lifecycle.ts).
    logger: logger ? loggerOptions(config.logLevel) : { level: 'silent' },
    logController: new RequestLifecycle({ log: logger, metrics: metricsOn(config) }),
    bodyLimit: BODY_LIMIT,
    // Fastify's default is no limit, which its documentation advises against without a proxy in
    // front. Node checks the requests under way against it every second (its default, 30 s, would
    // add up to that much to the limit); headers alone get no longer than the whole.
    requestTimeout: config.requestTimeoutMs,
    http: {
      connectionsCheckingInterval: 1_000,
      ...(config.requestTimeoutMs > 0 ? { headersTimeout: Math.min(60_000, config.requestTimeoutMs) } : {}),
    },
    // request.ip: the client behind the proxies CAIRN_TRUST_PROXY names (budgets, lockouts, sessions).
    trustProxy: config.trustProxy,
    clientErrorHandler,
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // The router's own errors (a malformed percent-encoding in the path) are problem+json too.
    frameworkErrors: (error, request, reply) =>
      sendProblem(
        reply,
        request,
        new AppError('validation_failed', `The URL is malformed: ${error.message}`),
      ),
    // Fastify types this factory as its own Ajv pool; ours has the same call shape (validation.ts).
    schemaController: {
      compilersFactory: {
        buildValidator: buildValidator as never,
        buildSerializer: buildSerializer as never,
      },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
}

async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Cairn API', version: '1.0.0', description: API_DESCRIPTION },
      servers: [{ url: config.publicUrl }],
      // Either credential: an API token, or the cookie a sign-in sets (http/auth.ts).
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          cookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
        },
      },
      security: [{ bearer: [] }, { cookie: [] }],
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transform: documentRoute,
    transformObject: documentObject,
  });
}

/**
 * One plugin per module: the resources' from the registry, in its order, then the modules that are
 * not resources. The order is the OpenAPI document's.
 */
async function registerModules(
  app: FastifyInstance,
  config: Config,
  redis: Redis | undefined,
): Promise<void> {
  // Invitation and password-link mails (mail/mailer.ts); closing the app waits for those under way.
  const mailer = createMailer(config, app.log);
  app.decorate('mailer', mailer);
  app.addHook('onClose', () => mailer.close());
  await app.register(healthRoutes);
  for (const resource of RESOURCES) {
    if (resource.routes) await app.register(resource.routes);
  }
  await app.register(apiTokenRoutes);
  await app.register(authRoutes, { redis });
  await app.register(collectionRoutes);
  await app.register(projectStatusRoutes);
  await app.register(eventRoutes);
  await app.register(streamRoutes);
  await app.register(webhookRoutes);
  await app.register(invitationRoutes);
  await app.register(recoveryRoutes);
}

/** The OpenAPI document and the page that shows it, once every route is in it. */
async function registerDocs(app: FastifyInstance): Promise<void> {
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { url: '/openapi.json', deepLinking: true },
    uiHooks: {},
    staticCSP: true,
  });
}
