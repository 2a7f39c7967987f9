// The application's type, apart from app.ts: route modules name it, and app.ts imports every route
// module, so were it declared there each route would import app.ts back (an import cycle).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import type { Config } from '../config.ts';
import type { Auth } from '../context.ts';
import type { Database } from '../db/index.ts';
import type { Cursors } from './cursor.ts';

interface Services {
  config: Config;
  database: Database;
  cursors: Cursors;
}

declare module 'fastify' {
  interface FastifyInstance {
    cairn: Services;
  }
  interface FastifyRequest {
    auth: Auth | null;
  }
}

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;
