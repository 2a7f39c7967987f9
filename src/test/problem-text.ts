// What an error answer must not say: a regular expression, or a validator's words for one. A client
// reads `detail` and `errors[].message` to learn what to fix; `must match pattern "^\s*\S…$"` tells
// it nothing (docs/api.md "Errors"). The test app checks every problem+json answer the suite makes
// (helpers.ts watchProblemText) and the fuzzer checks each of its own (fuzz.ts check).

// Each with a message that quotes one, from Ajv or written by hand.
const REGEX_SIGNS: RegExp[] = [
  /must match (pattern|format)/i, // Ajv's own words
  /\\[sSdDwWbB]/, // an escape class: \s, \d, \w
  /\[\^?[^\]\s]*[A-Za-z0-9]-[A-Za-z0-9][^\]\s]*\]/, // a character class with a range: [0-9a-f]
  /\(\?[:=!<]/, // a group: (?: (?= (?!
  /[\])]\{\d+(,\d*)?\}/, // a bounded repetition after a class or group: [a-z]{6}, (…){0,510}
  /(^|[\s"'`])\^[^\s]*\$($|[\s"'`])/, // an anchored expression: ^…$
];

/** Whether a text quotes a regular expression (or a validator's message about one). */
export function quotesRegex(text: string): boolean {
  return REGEX_SIGNS.some((sign) => sign.test(text));
}

/** The texts of a problem body that quote a regular expression, each with where it is. */
export function regexQuotesIn(body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return [];
  const problem = body as { detail?: unknown; errors?: unknown };
  const found: string[] = [];
  if (typeof problem.detail === 'string' && quotesRegex(problem.detail))
    found.push(`detail: ${problem.detail}`);
  if (Array.isArray(problem.errors)) {
    for (const e of problem.errors as { path?: unknown; message?: unknown }[]) {
      if (typeof e?.message === 'string' && quotesRegex(e.message)) found.push(`${e.path}: ${e.message}`);
    }
  }
  return found;
}
