// What every request needs at its start and end — its id echoed, its one log line, its metrics — done in
// Fastify's log controller, which Fastify calls for each request anyway (`incomingRequest` when the
// request object is made, `requestCompleted` when the answer is sent), rather than in onRequest and
// onResponse hooks: a hook costs a runner and a callback per request, and with metrics on, the two hooks
// they needed were the larger part of what metrics cost under load (docs/operations.md "What they
// cost"). Fastify documents the class as the one to extend for its per-request log lines.
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { logRequest } from '../log.ts';
import { requestFinished, requestStarted } from '../metrics/http.ts';

export class RequestLifecycle extends LogController {
  readonly #log: boolean;
  readonly #metrics: boolean;

  /** Fastify's own request lines (two at info) stay off: Cairn writes one (log.ts logRequest). */
  constructor(options: { log: boolean; metrics: boolean }) {
    super({ disableRequestLogging: true });
    this.#log = options.log;
    this.#metrics = options.metrics;
  }

  /** Every request, routed or not, before its onRequest hooks: also those a framework error answers. */
  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    // Fastify calls this bare in the server's request listener, where a throw would end the process;
    // nothing here should throw, and if it ever did, the request goes on without it.
    try {
      reply.header('x-request-id', request.id);
      if (this.#metrics) requestStarted(reply);
    } catch (error) {
      request.log.error({ err: error }, 'request start bookkeeping failed');
    }
  }

  /**
   * When the answer is sent (its 'finish', or an error writing it). Fastify calls this only where it
   * has a logger, so an app built without logs gets a silent one (app.ts).
   */
  override requestCompleted(_error: unknown, request: FastifyRequest, reply: FastifyReply): void {
    // Called from the response's 'finish' listener: the same care as above.
    try {
      if (this.#log) logRequest(request, reply);
      if (this.#metrics) requestFinished(request, reply);
    } catch (error) {
      request.log.error({ err: error }, 'request end bookkeeping failed');
    }
  }
}
