// The render pool's worker (render-pool.ts): converts one description in a worker thread, so that no
// input, however large or odd, holds the event loop. It says when it starts, so that the pool times
// the conversion itself, not the wait in the queue.
import { parentPort } from 'node:worker_threads';
import { AppError } from '../http/errors.ts';
import { convert, plainText } from './description.ts';

export interface RenderTask {
  id: number;
  text: string;
  isHtml: boolean;
  field: string;
}

/** The converted description and its search text, or the reason the input is refused. */
export type RenderResult = { html: string; markdown: string; text: string } | { refused: string };

export default function render(task: RenderTask): RenderResult {
  parentPort?.postMessage({ renderStarted: task.id });
  try {
    const description = convert(task.text, task.isHtml, task.field);
    return { ...description, text: plainText(description.html) };
  } catch (error) {
    // Errors cross the thread boundary as plain objects; the pool makes the 400 again from the message.
    if (error instanceof AppError) return { refused: error.errors?.[0]?.message ?? error.message };
    throw error;
  }
}
