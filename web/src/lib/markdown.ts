// Markdown rendered in the browser, before the API has it (an editor's preview) or where the API keeps
// Markdown (comments, status updates): one configuration of markdown-it for the whole app. Raw HTML is
// shown as text (`html: false`) and markdown-it refuses javascript: and similar links, so nothing
// rendered runs. Callers bring markdown-it themselves, loaded as their screen prefers (statically in a
// lazily loaded screen, or on first use), so it stays out of the first load.
import type MarkdownIt from 'markdown-it';

export type Render = (markdown: string) => string;

export function appMarkdown(MarkdownItClass: typeof MarkdownIt): Render {
  const md = new MarkdownItClass({ html: false, linkify: true });
  // As the API does: a link needs its scheme; a bare www.example.com stays text.
  md.linkify.set({ fuzzyLink: false });
  // A table column's alignment comes as a style attribute, which the app's CSP (style-src 'self')
  // refuses in parsed HTML: drop it rather than trip the policy.
  md.core.ruler.push('no_style_attributes', (state) => {
    for (const token of state.tokens) {
      if (token.attrs) token.attrs = token.attrs.filter(([name]) => name !== 'style');
    }
  });
  return (markdown) => md.render(markdown);
}
