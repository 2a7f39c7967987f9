// Markdown shown before the API has it: the editor's preview and a status update's text (the API keeps
// a post's content as sanitized Markdown and answers it as Markdown). markdown-it with raw HTML shown as
// text (`html: false`) and its own refusal of javascript: and similar links, so nothing rendered runs.
// It lives in the projects' and documents' chunks (imported only by their lazily loaded screens).
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: false, linkify: true });
// As the API does: a link needs its scheme; a bare www.example.com stays text.
md.linkify.set({ fuzzyLink: false });
// A table column's alignment comes as a style attribute, which the app's CSP (style-src 'self') refuses
// in parsed HTML: drop it rather than trip the policy.
md.core.ruler.push('no_style_attributes', (state) => {
  for (const token of state.tokens) {
    if (token.attrs) token.attrs = token.attrs.filter(([name]) => name !== 'style');
  }
});

export function renderMarkdown(text: string): string {
  return md.render(text);
}
