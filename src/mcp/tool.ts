/**
 * One MCP tool of the archive: its name ([a-z_]+), its description in the archive's own words (never a record's),
 * its input and output schemas (JSON Schema 2020-12, the MCP default dialect, so no "$schema" keyword is needed),
 * and its handler. src/mcp/server.ts registers them in a fixed order; both transports serve the same list.
 */
import type { CommandSpec } from '../builder/cli.ts';
import type { SiteClient } from './site-client.ts';

export type Transport = 'stdio' | 'http';

export interface ToolContext {
  transport: Transport;
  site: SiteClient;
  /** The intake gateway's base URL, no trailing slash. */
  gatewayUrl: string;
  /** stdio only: the agent's own key directory (signing happens in the agent's process, never on a server). */
  keyDir?: string;
  /** The builder's commands (record commands for draft_submission). */
  commands: readonly CommandSpec[];
  /** Seconds before a request to the site or the gateway gives up. */
  timeoutSeconds: number;
}

export interface ToolAnswer {
  /** Conforms to the tool's outputSchema. */
  structured: Record<string, unknown>;
  /** The plain-words rendering (the CLI's own words where a builder command ran). */
  text: string;
  /** A tool error: the call could not be carried out (usage, input/output, network). */
  isError?: boolean;
}

export interface ArchiveTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  /** Transports that serve it (default: both). */
  transports?: readonly Transport[];
  readOnly: boolean;
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolAnswer>;
}

/** A tool's input was not what its schema says (the SDK checks nothing for us: we say it in plain words). */
export class ToolInputError extends Error {}

/** Schema helpers: short, so that each tool's schemas read at a glance. */
export const S = {
  str: (description: string, extra: Record<string, unknown> = {}) => ({ type: 'string', description, ...extra }),
  nstr: (description: string) => ({ type: ['string', 'null'], description }),
  int: (description: string, extra: Record<string, unknown> = {}) => ({ type: 'integer', description, ...extra }),
  bool: (description: string) => ({ type: 'boolean', description }),
  obj: (properties: Record<string, unknown>, required: readonly string[] = [], extra: Record<string, unknown> = {}) => ({
    type: 'object',
    properties,
    required: [...required],
    additionalProperties: false,
    ...extra,
  }),
  arr: (items: Record<string, unknown>, description: string) => ({ type: 'array', items, description }),
  outcome: { type: 'string', enum: ['yes', 'no', 'error'], description: 'the builder\'s exit status in words: yes (0), no (1), error (2)' },
  report: { type: 'string', description: 'what the builder\'s command printed, in its plain words (the CLI\'s own diagnostics)' },
  hex64: { type: 'string', pattern: '^[a-f0-9]{64}$' },
  /** A submission: the JSON object the builder writes, or its exact text. */
  submission: {
    description: 'the submission (as draft_submission returns it, or as the builder wrote it): a JSON object, or its exact JSON text',
    type: ['object', 'string'],
  },
} as const;

export function stringArg(args: Record<string, unknown>, name: string): string | undefined {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new ToolInputError(`"${name}" must be a string`);
  return v;
}

export function stringListArg(args: Record<string, unknown>, name: string): string[] | undefined {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new ToolInputError(`"${name}" must be a list of strings`);
  return v as string[];
}

/** A submission argument as the exact bytes to send: a string as given, an object as the builder serialises it. */
export function submissionText(args: Record<string, unknown>, name = 'submission'): string {
  const v = args[name];
  if (typeof v === 'string') return v;
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) return JSON.stringify(v, null, 2) + '\n';
  throw new ToolInputError(`"${name}" must be the submission: a JSON object or its JSON text`);
}

/** The answer's text: the structured answer as JSON, after the words (commands' reports stay as printed). */
export function render(words: string, structured: Record<string, unknown>): string {
  return `${words.trimEnd()}\n\n${JSON.stringify(structured, null, 2)}\n`;
}
