// The app's Markdown (lib/markdown.ts) for the projects' and documents' screens, which are loaded
// lazily themselves, so markdown-it comes with their chunk.
import MarkdownIt from 'markdown-it';
import { appMarkdown } from '../../lib/markdown.ts';

export const renderMarkdown = appMarkdown(MarkdownIt);
