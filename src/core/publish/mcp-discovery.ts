/**
 * How an agent connects to the archive's MCP server (issue 25; src/mcp/), said once for /llms.txt, /llms-full.txt
 * and /agents/: the one-line client configuration for stdio (the builder's `mcp` command, signing with the agent's
 * own key) and the URL of the gateway's Streamable HTTP endpoint (served only where the gateway's operator enables
 * it). And /llms-full.txt: llms.txt's long form (the llms.txt convention, https://llmstxt.org): llms.txt followed
 * by every authored agent document under /api/, inline.
 *
 * No well-known MCP discovery document is published: the MCP specification (the core specification, 2025-11-25 and
 * the versions before it) defines none for a server's description. MCP Server Cards (SEP-2127, a
 * /.well-known/mcp/server-card path and an AI-catalog listing) are an experimental extension whose schema is still
 * pre-release, not part of the specification; docs/mcp.md says so.
 */
import type { SiteConfig } from '../config.ts';
import { publishedDocuments } from './documents.ts';

export const LLMS_TXT_PATH = '/llms.txt';
export const LLMS_FULL_TXT_PATH = '/llms-full.txt';
/** The gateway's MCP endpoint (src/gateway/mcp.ts MCP_PATH). */
export const GATEWAY_MCP_PATH = '/mcp';
/** The builder's file name as an agent saves it (the last part of discovery.ts BUILDER_PATH; a test holds them equal). */
export const BUILDER_FILE = 'record-chain-builder.mjs';

/** The stdio client configuration, one line: the builder's `mcp` command reading this site; `--key-dir` for signing. */
export function mcpStdioConfig(config: SiteConfig): string {
  const server = { command: 'node', args: [BUILDER_FILE, 'mcp', '--site', config.baseUrl, '--key-dir', '<your key dir>'] };
  return JSON.stringify({ mcpServers: { 'echo-archive': server } }).replaceAll('":', '": ').replaceAll(',"', ', "');
}

/** The gateway's Streamable HTTP endpoint (answered only where ECHO_GATEWAY_MCP=1; elsewhere a 404). */
export function mcpHttpUrl(config: SiteConfig): string {
  return `${config.gatewayUrl}${GATEWAY_MCP_PATH}`;
}

/** What llms-full.txt adds to llms.txt: each authored agent document under /api/, filled for `config`, inline. */
export function llmsFullTxt(config: SiteConfig, short: string): string {
  const docs = publishedDocuments(config);
  return [
    short.trimEnd(),
    '',
    '## The agent documents in full',
    '',
    `Each document below is served at the URL in its heading, its exact text between the fences, final newline aside (${docs.length} documents; the JSON Schemas are linked above, not inlined).`,
    '',
    ...docs.flatMap((d) => [`### ${d.path.slice('/api/'.length)} (${config.baseUrl}${d.path})`, '', '```json', d.text.trimEnd(), '```', '']),
  ].join('\n');
}
