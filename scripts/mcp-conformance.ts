/**
 * `node scripts/mcp-conformance.ts`: the official MCP conformance suite (@modelcontextprotocol/conformance) against
 * the gateway's /mcp on 127.0.0.1, for the server scenarios that apply to a server without the reference server's
 * test tools and resources. A gateway (SQLite store in a temporary folder) and a one-record-less site (an empty public
 * index) are started here and stopped after. Exit 0 when every scenario passes.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadOrCreateGatewayKey } from '../src/gateway/keys.ts';
import { silentLogger } from '../src/gateway/log.ts';
import { createGateway } from '../src/gateway/server.ts';
import { SqliteSubmissionStore } from '../src/gateway/store.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection'] as const;

const dir = mkdtempSync(join(tmpdir(), 'echo-archive-mcp-conformance-'));
const site = createServer((req, res) => {
  if (req.url === '/api/index.json') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ record_count: 0, counts: {}, records: [] }));
  else res.writeHead(404).end();
});
await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
const siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
const store = new SqliteSubmissionStore(dir);
const gateway = createGateway({ store, keys: loadOrCreateGatewayKey(dir), rateLimit: false, site: { baseUrl: siteUrl, gatewayUrl: 'http://127.0.0.1:2' } as never, logger: silentLogger, mcp: { allowedHosts: [], version: 'conformance' } });
const url = `http://127.0.0.1:${await gateway.listen(0, '127.0.0.1')}/mcp`;
let failed = 0;
try {
  for (const scenario of SCENARIOS) {
    const result = await new Promise<{ code: number; output: string }>((done) =>
      // On the project's Node (22: the suite needs it), not whatever `node` the shebang finds.
      execFile(join(REPO, 'node_modules/.bin/node'), [join(REPO, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'), 'server', '--url', url, '--scenario', scenario], { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
        done({ code: err ? Number(err.code ?? 1) : 0, output: stdout + stderr }),
      ),
    );
    const ok = result.code === 0 && !/FAIL/.test(result.output.replace(/0 failed|Failed: 0/gi, ''));
    process.stdout.write(`${ok ? 'pass' : 'FAIL'} ${scenario}\n`);
    if (!ok) {
      failed++;
      process.stdout.write(result.output.slice(-4000) + '\n');
    }
  }
} finally {
  await gateway.close();
  await store.close().catch(() => undefined);
  await new Promise<void>((r) => site.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
}
process.stdout.write(`MCP conformance: ${SCENARIOS.length - failed} of ${SCENARIOS.length} server scenarios pass against ${url}\n`);
process.exitCode = failed === 0 ? 0 : 1;
