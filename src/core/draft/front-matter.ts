/**
 * Splitting a Markdown draft into its front matter and body with gray-matter, with every gray-matter engine turned
 * off: gray-matter would `eval` a `---js` or `---javascript` block by default, and its YAML engine (js-yaml 3) is
 * not the one we trust. gray-matter only finds the delimiters here; the front matter is read by safe-yaml.ts (YAML)
 * or the core's strict JSON reader (`---json`), and any other language is refused before gray-matter sees the text.
 */
import matter from 'gray-matter';
import type { Finding } from '../diagnostics/diagnostic.ts';
import { positionsIn } from './safe-yaml.ts';

export type FrontMatterLanguage = 'yaml' | 'json';

export interface SplitDraft {
  language: FrontMatterLanguage;
  /** The front matter text; it starts with the newline that ends the opening `---` line, so its lines are the draft's. */
  matter: string;
  /** The Markdown body (after the closing `---` line). */
  body: string;
  /** The draft's line (from 1) on which the body starts. */
  bodyLine: number;
}

const ACCEPTED = new Map<string, FrontMatterLanguage>([
  ['', 'yaml'],
  ['yaml', 'yaml'],
  ['yml', 'yaml'],
  ['json', 'json'],
]);

function refuse(name: string) {
  return () => {
    throw new Error(`front matter engine "${name}" is disabled`);
  };
}

/** gray-matter's engines, all inert: the caller parses the text it returns. */
const ENGINES = {
  yaml: { parse: () => ({}), stringify: refuse('yaml') },
  json: { parse: () => ({}), stringify: refuse('json') },
  javascript: { parse: refuse('javascript'), stringify: refuse('javascript') },
  js: { parse: refuse('js'), stringify: refuse('js') },
  coffee: { parse: refuse('coffee'), stringify: refuse('coffee') },
};

const SHAPE_HINT = 'A draft starts with a line "---", then the record\'s fields in YAML, then a line "---", then the echo in Markdown.';

function error(rule: string, message: string, hint: string, line = 1, column = 1): Finding {
  return { rule, severity: 'error', message, hint, pointer: '', line, column };
}

export function splitDraft(input: string): { draft?: SplitDraft; findings: Finding[] } {
  // Windows line endings are read as plain newlines (a raw CR in the echo is kept only through a quoted YAML "\r").
  const text = (input.startsWith('\uFEFF') ? input.slice(1) : input).replaceAll('\r\n', '\n');
  if (!/^---[^\n]*\n/.test(text)) {
    return { findings: [error('draft/front-matter', 'the draft does not start with front matter', SHAPE_HINT)] };
  }
  const raw = matter.language(text);
  const language = ACCEPTED.get(raw.name.toLowerCase());
  if (language === undefined) {
    return {
      findings: [
        error(
          'draft/front-matter-language',
          `front matter in "${raw.name}" is not accepted: front matter is data, and only YAML or JSON is read (a "---js" block would otherwise run as code)`,
          'Write the fields in YAML after a plain "---" line (or JSON after "---json").',
        ),
      ],
    };
  }
  const matterStart = 3 + raw.raw.length;
  if (text.indexOf('\n---', matterStart) === -1) {
    return { findings: [error('draft/front-matter', 'the front matter is not closed', `Add a line "---" after the last field. ${SHAPE_HINT}`)] };
  }
  // Options are always passed, so gray-matter neither caches this text nor uses its default engines.
  const file = matter(text, { engines: ENGINES, language: language });
  const bodyOffset = text.length - file.content.length;
  return {
    draft: { language, matter: file.matter, body: file.content, bodyLine: positionsIn(text)(bodyOffset).line },
    findings: [],
  };
}
