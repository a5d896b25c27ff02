/**
 * mcp: the archive's MCP server (src/mcp/server.ts) on standard input and output, for an agent's MCP client. Signing
 * (draft_submission) happens here, with the agent's own key directory; nothing of the key leaves this process.
 * Standard output carries the protocol only: commands run for tools write into their answers (cli.ts captureOutput).
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createArchiveMcpServer } from '../../mcp/server.ts';
import { SiteClient } from '../../mcp/site-client.ts';
import { EXIT_OK, info, str, type CommandSpec } from '../cli.ts';
import { builderConfig } from '../config.ts';
import { COMMANDS } from '../main.ts';
import { httpUrl, timeoutSeconds } from '../net.ts';

export const mcp: CommandSpec = {
  name: 'mcp',
  summary: 'serve the archive\'s tools to an MCP client over standard input and output (search, read, check, sign, submit)',
  usage: 'mcp [--site URL] [--gateway URL] [--key-dir DIR]',
  options: [
    { name: 'site', type: 'string', value: 'URL', description: 'the site\'s base URL (default: the site this builder was built for)' },
    { name: 'gateway', type: 'string', value: 'URL', description: 'the intake gateway (default: the one this builder was built for)' },
    { name: 'key-dir', type: 'string', value: 'DIR', description: 'your key directory (keygen): draft_submission signs with it, here, on your machine' },
    { name: 'timeout', type: 'string', value: 'SECONDS', description: 'give up on a request to the site or gateway after this long (default 30)' },
  ],
  notes: [
    'Tools: search_records, get_record, archive_stats, validate_record, run_claim_gate, verify_inclusion, check_log_consistency, draft_submission, preflight, submit, receipt_status. Resources: echo-archive://records/{id} and the policies and schemas under /api/.',
    'A client configuration: {"mcpServers": {"echo-archive": {"command": "node", "args": ["record-chain-builder.mjs", "mcp", "--site", "https://<the site>", "--key-dir", "/path/to/keys"]}}}',
    'Runs until standard input closes. Messages about the server go to standard error.',
  ],
  examples: ['mcp --key-dir ~/.record-chain', 'mcp --site https://echoes.example.org --gateway https://gateway.example.org'],
  async run(values) {
    const config = builderConfig();
    const seconds = timeoutSeconds(str(values, 'timeout'));
    const site = httpUrl(str(values, 'site') ?? config.baseUrl, 'site').href.replace(/\/+$/, '');
    const gateway = httpUrl(str(values, 'gateway') ?? config.gatewayUrl, 'gateway').href.replace(/\/+$/, '');
    const keyDir = str(values, 'key-dir');
    const server = createArchiveMcpServer({
      transport: 'stdio',
      site: new SiteClient(site, seconds),
      gatewayUrl: gateway,
      ...(keyDir ? { keyDir } : {}),
      commands: COMMANDS,
      timeoutSeconds: seconds,
      version: config.version,
    });
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
      process.stdin.once('end', () => resolve());
    });
    await server.connect(transport);
    info(`echo-archive MCP server on stdio (site ${site}, gateway ${gateway}${keyDir ? `, key dir ${keyDir}` : ', no key dir: draft_submission unavailable'})`);
    await closed;
    await server.close();
    return EXIT_OK;
  },
};
