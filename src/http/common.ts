// Request shapes shared by several resources: descriptions and date inputs.
import { Type } from 'typebox';
import { MAX_EPOCH_MS, MIN_EPOCH_MS } from '../text/dates.ts';

const MAX_DESCRIPTION = 200_000;

/**
 * Marks a request field as rich text: the server converts it in its render pool before the handler
 * runs (http/rich-text.ts). Validation ignores the keyword.
 */
export const RICH_TEXT = { 'x-rich-text': true } as const;

/** Markdown as a string or {markdown}, or HTML as {html} (docs/api.md, "Descriptions"). */
export const DescriptionInput = Type.Union(
  [
    Type.String({ maxLength: MAX_DESCRIPTION }),
    Type.Object({ markdown: Type.String({ maxLength: MAX_DESCRIPTION }) }, { additionalProperties: false }),
    Type.Object({ html: Type.String({ maxLength: MAX_DESCRIPTION }) }, { additionalProperties: false }),
  ],
  RICH_TEXT,
);

/**
 * ISO 8601 with any offset, or epoch milliseconds, in the years 1 to 9999 (text/dates.ts checks the
 * calendar and the range of both forms).
 */
export const DateInput = Type.Union([
  Type.String({ minLength: 4, maxLength: 40, examples: ['2026-12-01T09:00:00.000Z'] }),
  Type.Integer({ minimum: MIN_EPOCH_MS, maximum: MAX_EPOCH_MS, examples: [1795305600000] }),
]);

export const DescriptionOut = Type.Object({
  html: Type.String(),
  markdown: Type.Optional(Type.String({ description: 'Only with includeMarkdown' })),
});

export const Person = Type.Object({ id: Type.String(), name: Type.String(), email: Type.String() });
