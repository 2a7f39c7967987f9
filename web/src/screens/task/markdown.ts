// Markdown in the browser, for the description editor's live preview and for comments (which the API
// keeps as Markdown): markdown-it, loaded the first time it is needed (about 40 kB gzipped, kept out of
// the first load). Raw HTML is shown as text (`html: false`) and markdown-it refuses javascript: and
// similar links, so nothing rendered here runs; a saved description is shown as the API renders and
// sanitizes it (docs/api.md, "Descriptions").
type Render = (markdown: string) => string;

let renderer: Promise<Render> | undefined;

export function loadMarkdown(): Promise<Render> {
  renderer ??= import('markdown-it').then(({ default: MarkdownIt }) => {
    const md = new MarkdownIt({ html: false, linkify: true });
    return (markdown: string) => md.render(markdown);
  });
  return renderer;
}
