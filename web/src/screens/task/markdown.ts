// The app's Markdown (lib/markdown.ts) for the task's description preview and comments: markdown-it
// loaded the first time it is needed (about 40 kB gzipped, kept out of the first load). A saved
// description is shown as the API renders and sanitizes it (docs/api.md, "Descriptions").
import { appMarkdown, type Render } from '../../lib/markdown.ts';

let renderer: Promise<Render> | undefined;

export function loadMarkdown(): Promise<Render> {
  renderer ??= import('markdown-it').then(({ default: MarkdownIt }) => appMarkdown(MarkdownIt));
  return renderer;
}
