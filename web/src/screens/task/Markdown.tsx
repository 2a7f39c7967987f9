// Markdown the API keeps as Markdown (a comment's content), rendered in the browser by markdown.ts:
// the text as it is until the renderer has loaded, then the rendered text.
import { useEffect, useState } from 'react';
import { loadMarkdown } from './markdown.ts';

export function Markdown({ text, className }: { text: string; className: string }) {
  const html = useRendered(text);
  if (html === null) return <div className={`${className} plain-text`}>{text}</div>;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: markdown-it with raw HTML off (markdown.ts).
  return <div className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** The text rendered to HTML, or null until the renderer has loaded. */
export function useRendered(text: string): string | null {
  const [html, setHtml] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void loadMarkdown().then((render) => {
      if (live) setHtml(render(text));
    });
    return () => {
      live = false;
    };
  }, [text]);
  return html;
}
