/**
 * The archive's MCP server (src/mcp/server.ts) over Streamable HTTP at /mcp, beside the gateway's routes: stateless
 * (a server and transport per request, no sessions), JSON answers, no signing and no keys (draft_submission is not
 * served). The gateway's body limit, rate limit, request ids, metrics and log lines apply as to every route
 * (server.ts). A tool that calls the gateway (preflight, submit, receipt_status) calls it over HTTP at its own address,
 * as the builder's commands do; those calls carry this process's inner-call token (MCP_INNER_CALL_HEADER) and are not
 * rate-limited again: the /mcp request that made them was charged to its client, whereas charging them too would put
 * every MCP client's calls in the one bucket of the gateway's loopback address. Host and Origin are checked against
 * DNS rebinding: only loopback names and the hosts of the configured public URLs (and ECHO_GATEWAY_MCP_ALLOWED_HOSTS)
 * are answered.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { withHeadersFor } from '../builder/net.ts';
import { createArchiveMcpServer } from '../mcp/server.ts';
import { SiteClient } from '../mcp/site-client.ts';

export const MCP_PATH = '/mcp';
/** The header of a tool's call to the gateway itself; its value is a random token of the process (never published). */
export const MCP_INNER_CALL_HEADER = 'x-echo-gateway-mcp-call';
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export interface GatewayMcpOptions {
  /** The published site the reading tools read. */
  siteUrl: string;
  /** The gateway's own base URL for preflight, submit and receipt_status (its listening address). */
  gatewayUrl: () => string;
  version: string;
  /** The value tools' calls to the gateway carry in MCP_INNER_CALL_HEADER. */
  innerCallToken: string;
}

function hostnameOf(hostHeader: string): string {
  try {
    return new URL(`http://${hostHeader}`).hostname.toLowerCase();
  } catch {
    return '';
  }
}

/** Why a request's Host or Origin is refused (DNS rebinding), or undefined when it may be answered. */
export function rebindingProblem(req: IncomingMessage, allowedHosts: readonly string[]): string | undefined {
  const allowed = (name: string) => LOOPBACK.has(name) || allowedHosts.includes(name);
  const host = req.headers.host ?? '';
  if (!allowed(hostnameOf(host))) return `the Host ${JSON.stringify(host.slice(0, 100))} is not one this gateway answers MCP requests for`;
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null') {
    let name = '';
    try {
      name = new URL(origin).hostname.toLowerCase();
    } catch {
      /* refused below */
    }
    if (!allowed(name)) return `the Origin ${JSON.stringify(origin.slice(0, 100))} is not allowed to call this gateway's MCP endpoint`;
  }
  return undefined;
}

export function gatewayMcp(options: GatewayMcpOptions) {
  const site = new SiteClient(options.siteUrl, 30);
  return async function handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const gatewayUrl = options.gatewayUrl();
    const server = createArchiveMcpServer({
      transport: 'http',
      site,
      gatewayUrl,
      commands: [],
      timeoutSeconds: 30,
      version: options.version,
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await withHeadersFor(gatewayUrl, { [MCP_INNER_CALL_HEADER]: options.innerCallToken }, () => transport.handleRequest(req, res, body));
  };
}
