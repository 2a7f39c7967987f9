// GitHub's task list items (`- [ ] to do`, `- [x] done`) as read-only checkboxes, for markdown-it.
// Written here because the kept plugins do not fit: markdown-it-task-lists walks back to each item's
// list (quadratic: 3.4 s for 200,000 characters of items) and @hedgedoc's imports a markdown-it path
// that version 15 no longer exports. One pass over the tokens, nothing else.
import type { MarkdownIt, StateCore } from 'markdown-it';

const MARKER = /^\[([ xX])\][ \t]/;

export function taskLists(md: MarkdownIt): void {
  md.core.ruler.after('inline', 'task_lists', (state: StateCore) => {
    const tokens = state.tokens;
    for (let i = 2; i < tokens.length; i++) {
      const inline = tokens[i]!;
      if (inline.type !== 'inline' || tokens[i - 1]!.type !== 'paragraph_open') continue;
      if (tokens[i - 2]!.type !== 'list_item_open') continue;
      const first = inline.children?.[0];
      const marker = first?.type === 'text' ? MARKER.exec(first.content) : null;
      if (!first || !marker) continue;
      first.content = first.content.slice(marker[0].length);
      const box = new state.Token('html_inline', '', 0);
      box.content = `<input type="checkbox" disabled${marker[1] === ' ' ? '' : ' checked'}> `;
      inline.children!.unshift(box);
    }
  });
}
