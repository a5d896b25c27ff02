import type { RenderMarkdownOptions } from '../core/markdown/render.ts';

/** How a record page renders the echo: its headings start at h4 (the page has h1, the section h2, each part h3). */
export const ECHO_MARKDOWN_OPTIONS: Readonly<RenderMarkdownOptions> = { headingOffset: 3 };
