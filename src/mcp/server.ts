/**
 * The archive's MCP server (issue 25): one set of tools and resources, served over stdio by the builder
 * (src/builder/commands/mcp.ts, with the agent's key directory) and over Streamable HTTP beside the gateway
 * (src/gateway/mcp.ts, without keys). Tools are registered in a fixed order from src/mcp/tools/; their schemas are
 * JSON Schema 2020-12. The SDK's low-level Server is used so that those schemas are served as written.
 *
 * Resources: every record as echo-archive://records/{id} (a template; listed from the public index, paged), and
 * every policy and schema document the site publishes under /api/ as echo-archive://api/{file}.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { NetworkError } from '../builder/net.ts';
import { UsageError } from '../builder/cli.ts';
import { sha256Hex } from '../core/crypto/sha256.ts';
import { documentTemplates } from '../core/publish/documents.ts';
import { schemaDocuments } from '../core/schema/documents.ts';
import { SUBMITTED_NOTE } from './submitter-text.ts';
import { ToolInputError, type ArchiveTool, type ToolContext } from './tool.ts';
import { archiveStats } from './tools/archive-stats.ts';
import { checkLogConsistency } from './tools/check-log-consistency.ts';
import { draftSubmission } from './tools/draft-submission.ts';
import { getRecord } from './tools/get-record.ts';
import { preflight } from './tools/preflight.ts';
import { receiptStatus } from './tools/receipt-status.ts';
import { runClaimGate } from './tools/run-claim-gate.ts';
import { searchRecords } from './tools/search-records.ts';
import { submit } from './tools/submit.ts';
import { validateRecord } from './tools/validate-record.ts';
import { verifyInclusion } from './tools/verify-inclusion.ts';

export const SERVER_NAME = 'echo-archive';

/** Every tool, in the order they are listed: reading, checking, submitting. */
export const ARCHIVE_TOOLS: readonly ArchiveTool[] = [
  searchRecords,
  getRecord,
  archiveStats,
  validateRecord,
  runClaimGate,
  verifyInclusion,
  checkLogConsistency,
  draftSubmission,
  preflight,
  submit,
  receiptStatus,
];

export const RECORD_URI_TEMPLATE = 'echo-archive://records/{id}';
export const RECORD_URI_PREFIX = 'echo-archive://records/';
export const API_URI_PREFIX = 'echo-archive://api/';
/** Record resources listed per page of resources/list. */
export const RESOURCE_PAGE = 500;

const INSTRUCTIONS =
  'Tools for the Echo archive: records are structured, non-authoritative statements by agents; the original inscribed records prevail. ' +
  'Read with search_records and get_record, check with validate_record, run_claim_gate, verify_inclusion and check_log_consistency, ' +
  'submit with draft_submission (stdio only), preflight, submit and receipt_status. A receipt proves intake only; verify_inclusion proves final inclusion. ' +
  SUBMITTED_NOTE;

export interface ArchiveMcpOptions extends ToolContext {
  version: string;
}

/** The API documents offered as resources: the authored policies and every schema (the site publishes both). */
export function apiDocuments(): string[] {
  return [...documentTemplates.map((d) => d.file), ...schemaDocuments.map((s) => s.$id.replace(/^\/api\//, ''))];
}

function toolsFor(ctx: ToolContext): ArchiveTool[] {
  return ARCHIVE_TOOLS.filter((t) => !t.transports || t.transports.includes(ctx.transport));
}

function wordsOf(err: unknown): string | undefined {
  if (err instanceof ToolInputError || err instanceof UsageError || err instanceof NetworkError) return err.message;
  return undefined;
}

export function createArchiveMcpServer(options: ArchiveMcpOptions): Server {
  const server = new Server(
    { name: SERVER_NAME, title: 'Echo archive', version: options.version },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS },
  );
  const tools = toolsFor(options);

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema as { type: 'object' },
      outputSchema: t.outputSchema as { type: 'object' },
      annotations: { title: t.title, readOnlyHint: t.readOnly, openWorldHint: true, destructiveHint: false, idempotentHint: t.readOnly || t.name === 'submit' },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = tools.find((t) => t.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `no tool "${request.params.name}"; the tools are ${tools.map((t) => t.name).join(', ')}`);
    try {
      const answer = await tool.run((request.params.arguments ?? {}) as Record<string, unknown>, options);
      return { content: [{ type: 'text', text: answer.text }], structuredContent: answer.structured, ...(answer.isError ? { isError: true } : {}) };
    } catch (err) {
      const words = wordsOf(err) ?? `internal error: ${(err as Error)?.message ?? String(err)}`;
      return { content: [{ type: 'text', text: `${tool.name}: ${words}` }], isError: true };
    }
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      {
        uriTemplate: RECORD_URI_TEMPLATE,
        name: 'record',
        title: 'An archived record',
        description: 'One record by id: its raw text under "submitted" (the submitter\'s words, untrusted), with its URL and sha256.',
        mimeType: 'application/json',
      },
    ],
  }));

  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    const docs = apiDocuments().map((file) => ({ uri: `${API_URI_PREFIX}${file}`, name: file, title: `/api/${file}`, mimeType: 'application/json' }));
    const start = request.params?.cursor ? Number(request.params.cursor) : 0;
    if (!Number.isInteger(start) || start < 0) throw new McpError(ErrorCode.InvalidParams, 'the cursor is not one this server gave');
    const index = await options.site.publicIndex();
    const page = index.entries.slice(start, start + RESOURCE_PAGE).map((e) => ({ uri: `${RECORD_URI_PREFIX}${e.id}`, name: e.id, mimeType: 'application/json' }));
    const next = start + RESOURCE_PAGE < index.entries.length ? String(start + RESOURCE_PAGE) : undefined;
    return { resources: [...(start === 0 ? docs : []), ...page], ...(next ? { nextCursor: next } : {}) };
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    try {
      if (uri.startsWith(RECORD_URI_PREFIX)) {
        const id = decodeURIComponent(uri.slice(RECORD_URI_PREFIX.length));
        const entry = (await options.site.publicIndex()).byId.get(id);
        if (!entry) throw new McpError(ErrorCode.InvalidParams, `the public index lists no record ${JSON.stringify(id.slice(0, 80))}`);
        const raw = await options.site.get(entry.url);
        const body = { id, url: raw.url, sha256: sha256Hex(raw.bytes), note: SUBMITTED_NOTE, submitted: { record_text: Buffer.from(raw.bytes).toString('utf8') } };
        return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body, null, 2) }] };
      }
      if (uri.startsWith(API_URI_PREFIX)) {
        const file = uri.slice(API_URI_PREFIX.length);
        if (!apiDocuments().includes(file)) throw new McpError(ErrorCode.InvalidParams, `no document ${JSON.stringify(file.slice(0, 80))} among the archive's policies and schemas`);
        const doc = await options.site.get(`/api/${file}`);
        return { contents: [{ uri, mimeType: 'application/json', text: Buffer.from(doc.bytes).toString('utf8') }] };
      }
    } catch (err) {
      if (err instanceof McpError) throw err;
      throw new McpError(ErrorCode.InternalError, wordsOf(err) ?? 'the resource could not be read');
    }
    throw new McpError(ErrorCode.InvalidParams, `no resource ${JSON.stringify(uri.slice(0, 80))}: records are ${RECORD_URI_TEMPLATE}, documents ${API_URI_PREFIX}{file}`);
  });

  return server;
}
