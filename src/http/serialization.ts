// Response serializers compiled on first use. Fastify compiles a fast-json-stringify function for
// every response schema of every route when the app starts (a quarter of a second of a server's start
// and of every test app here, and memory for routes a process may never answer); compiled on a
// route's first answer instead, each costs its few milliseconds once, where it is used.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type Route = Parameters<ReturnType<ReturnType<typeof SerializerSelector>>>[0];
type Serialize = (data: unknown) => string;

/**
 * Fastify's compilersFactory.buildSerializer: its own, compiling each route's serializer lazily.
 *
 * fast-json-stringify picks a union's branch by validating the value against each with Ajv. Formats
 * are left out of that: a nullable id (`anyOf: [uuid, null]`) then costs a type test where it cost the
 * UUID pattern (2 % of a page of 50 tasks), and no union of ours tells its branches apart by format
 * alone. The answer's bytes are the same; what requests may send is still checked with formats.
 */
export function buildSerializer(externalSchemas: unknown, serializerOpts: unknown) {
  const given = (serializerOpts ?? {}) as { ajv?: object };
  const options = { ...given, ajv: { ...given.ajv, validateFormats: false } };
  const compile = SerializerSelector()(externalSchemas as never, options as never);
  return (route: Route): Serialize => {
    let serialize: Serialize | undefined;
    return (data) => {
      serialize ??= compile(route) as Serialize;
      return serialize(data);
    };
  };
}
