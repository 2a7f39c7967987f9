// Every answer the test suite produces, checked against the app's own /openapi.json: its status must be
// one the document lists for the operation (method and route), and each header it sends beyond
// HTTP's own must be one the document declares on that status. helpers.ts watches every app a test
// builds and fails the test whose request got an undeclared answer, so the suite itself proves the
// document lists what the API does (src/http/document.ts).
import type { App } from '../http/app-type.ts';

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document, walked by hand.
type Json = any;

/** Headers that are HTTP's own, not the API's: the document does not declare them. */
const HTTP_HEADERS = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);

const found = new WeakMap<App, string[]>();

/** Starts checking the app's answers; a no-op when it already is, or once the app is ready. */
export function watchAnswers(app: App): void {
  if (found.has(app)) return;
  const findings: string[] = [];
  let doc: Json;
  try {
    app.addHook('onSend', async (request, reply, payload) => {
      const route = request.routeOptions.url;
      if (!route) return payload;
      doc ??= app.swagger();
      const path = route.replace(/:(\w+)/g, '{$1}');
      const op = doc.paths?.[path]?.[request.method.toLowerCase()];
      if (!op) return payload;
      const where = `${request.method} ${path} answered ${reply.statusCode}`;
      let response = op.responses[String(reply.statusCode)];
      if (response?.$ref) response = doc.components.responses[response.$ref.split('/').pop()];
      if (!response) {
        findings.push(`${where}, a status the document does not list (${Object.keys(op.responses)})`);
        return payload;
      }
      const declared = new Set(Object.keys(response.headers ?? {}).map((h) => h.toLowerCase()));
      for (const name of Object.keys(reply.getHeaders())) {
        if (!HTTP_HEADERS.has(name) && !declared.has(name))
          findings.push(`${where} with header ${name}, which the document does not declare there`);
      }
      return payload;
    });
  } catch {
    return; // already ready: hooks can no longer be added
  }
  found.set(app, findings);
}

/** Fails the test whose request got an answer /openapi.json does not declare (reporting each once). */
export function checkDeclared(app: App): void {
  const findings = found.get(app) ?? [];
  const undeclared = findings.splice(0, findings.length);
  if (undeclared.length > 0) throw new Error(`Undeclared in /openapi.json:\n${undeclared.join('\n')}`);
}
