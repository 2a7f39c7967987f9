// Descriptions and post content are converted in a pool of worker threads (piscina), never on the
// event loop: a large or pathological input then costs one worker for a while, not every other
// request. Each conversion has a time budget of its own, counted from when a worker starts it (not
// from when it was queued); past it the worker is stopped and replaced, and the input is refused
// with a 400 naming the field. docs/api.md, "Descriptions", states the rule.
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { invalid } from '../http/errors.ts';
import { type DescriptionInput, RichText, rememberPlainText, sourceOf } from './description.ts';
import { plainParagraph } from './plain-paragraph.ts';
import type { RenderResult, RenderTask } from './render-worker.ts';

/**
 * The default budget. A linear converter takes about a second for the largest and worst input the
 * limits allow (200,000 characters, docs/reliability.md); the budget is the backstop for what it does
 * not foresee, with room for a busy machine.
 */
export const DEFAULT_RENDER_BUDGET_MS = 10_000;

let budgetMs = DEFAULT_RENDER_BUDGET_MS;
let pool: Piscina<RenderTask, RenderResult> | null = null;
let nextId = 1;
// Conversions a worker has started: id → what starts its budget.
const starting = new Map<number, () => void>();

/** The budget of one conversion (CAIRN_RENDER_BUDGET_MS); set once at start. */
export function setRenderBudget(ms: number): void {
  budgetMs = ms;
}

function thePool(): Piscina<RenderTask, RenderResult> {
  if (pool) return pool;
  pool = new Piscina<RenderTask, RenderResult>({
    filename: new URL('./render-worker.ts', import.meta.url).href,
    // One thread stays ready; more start under load, up to one per core, and stop when idle.
    minThreads: 1,
    maxThreads: Math.max(1, availableParallelism()),
    idleTimeout: 30_000,
  });
  pool.on('message', (message: { renderStarted?: number }) => {
    if (message?.renderStarted !== undefined) starting.get(message.renderStarted)?.();
  });
  return pool;
}

/** One input converted by the pool: a RichText holding the description, or the 400 that refuses it. */
async function render(input: DescriptionInput, field: string): Promise<RichText> {
  if (input instanceof RichText) return input;
  const { text, isHtml } = sourceOf(input);
  // One short line of plain words needs no converter, nor a trip to a worker (plain-paragraph.ts).
  const plain = isHtml ? undefined : plainParagraph(text);
  if (plain) return new RichText(plain, null);
  const id = nextId++;
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  starting.set(id, () => {
    timer = setTimeout(() => controller.abort(), budgetMs);
  });
  try {
    const result = await thePool().run({ id, text, isHtml, field }, { signal: controller.signal });
    if ('refused' in result) return new RichText(null, invalid(field, result.refused));
    rememberPlainText(result.html, result.text);
    return new RichText({ html: result.html, markdown: result.markdown }, null);
  } catch (error) {
    if (!controller.signal.aborted) throw error;
    const message = `took longer than ${budgetMs} ms to convert; split it or simplify it (long runs of emphasis, brackets or table cells)`;
    return new RichText(null, invalid(field, message));
  } finally {
    clearTimeout(timer);
    starting.delete(id);
  }
}

function isDescriptionInput(value: unknown): value is DescriptionInput {
  if (typeof value === 'string') return true;
  if (typeof value !== 'object' || value === null) return false;
  const { markdown, html } = value as { markdown?: unknown; html?: unknown };
  return typeof markdown === 'string' || typeof html === 'string';
}

/**
 * Converts the named fields of a body (or of a batch entry) in place, all at once: each becomes a
 * RichText that the service's `fromInput` reads without converting again. Absent, null and
 * malformed values are left for validation to report.
 */
export async function prepareRichText(
  body: Record<string, unknown>,
  fields: readonly string[],
): Promise<void> {
  await Promise.all(
    fields.map(async (field) => {
      const value = body[field];
      if (isDescriptionInput(value)) body[field] = await render(value, field);
    }),
  );
}

/** The properties of a body schema that carry rich text (marked `x-rich-text`), through anyOf branches. */
export function richTextFields(schema: unknown): string[] {
  const found = new Set<string>();
  const isRich = (s: unknown): boolean => {
    const node = s as { 'x-rich-text'?: boolean; anyOf?: unknown[] } | undefined;
    return node?.['x-rich-text'] === true || (node?.anyOf ?? []).some(isRich);
  };
  const walk = (s: unknown) => {
    const node = s as { properties?: Record<string, unknown>; anyOf?: unknown[] } | undefined;
    for (const [name, property] of Object.entries(node?.properties ?? {}))
      if (isRich(property)) found.add(name);
    for (const branch of node?.anyOf ?? []) walk(branch);
  };
  walk(schema);
  return [...found];
}
