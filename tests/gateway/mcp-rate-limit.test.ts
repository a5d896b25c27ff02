/**
 * An MCP tool call through the gateway's /mcp is charged once, to its client: the calls the tool makes to the gateway
 * itself (receipt_status, preflight, submit) carry the process's inner-call token and are not charged again, so MCP
 * clients do not share the one bucket of the gateway's loopback address (src/gateway/mcp.ts). A request that merely
 * names the header is charged as any other.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBMISSIONS_PATH } from '../../src/core/record-chain/index.ts';
import { MCP_INNER_CALL_HEADER } from '../../src/gateway/mcp.ts';
import { startGateway, type RunningGateway } from './helpers.ts';

/** Requests a client may make before it is refused; none come back within the test (one a day). */
const BURST = 12;
/** receipt_status calls: with each one's inner call charged too, far more than BURST requests. */
const CALLS = 7;

let gw: RunningGateway;
let client: Client;

beforeAll(async () => {
  gw = await startGateway({
    rateLimit: { perClient: { burst: BURST, perSecond: 1 / 86_400 }, global: { burst: 1000, perSecond: 100 } },
    mcp: { allowedHosts: [], version: 'test' },
  });
  client = new Client({ name: 'echo-archive-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${gw.url}/mcp`)));
});

afterAll(async () => {
  await client?.close();
  await gw?.stop();
});

describe("the gateway's /mcp and its rate limit", () => {
  it('charges a tool call that calls the gateway once, not twice', async () => {
    for (let i = 0; i < CALLS; i++) {
      const result = (await client.callTool({ name: 'receipt_status', arguments: { submission_sha256: 'e'.repeat(64) } })) as {
        isError?: boolean;
        structuredContent?: { found: boolean; outcome: string };
        content: unknown;
      };
      expect(result.isError, `call ${i + 1}: ${JSON.stringify(result.content)}`).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ found: false, outcome: 'no' });
    }
  });

  it('still limits the client, and a request that names the header without the token', async () => {
    const url = `${gw.url}${SUBMISSIONS_PATH}/${'e'.repeat(64)}`;
    const statuses: number[] = [];
    for (let i = 0; i < BURST + 1; i++) statuses.push((await fetch(url, { headers: { [MCP_INNER_CALL_HEADER]: 'a guess' } })).status);
    // What the MCP calls above left of the burst, then refusals.
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((s) => s === 404).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 404).length).toBeLessThan(BURST - CALLS);
  });
});
