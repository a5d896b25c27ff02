/** `npm run gateway`: the intake gateway (see server.ts and config.ts). */
import { readFileSync } from 'node:fs';
import { siteConfig } from '../core/config.ts';
import { KeyFileError } from '../core/crypto/key-file.ts';
import { SUBMISSION_SCHEMA_ID } from '../core/record-chain/index.ts';
import { warmSchemas } from '../core/schema/compile.ts';
import { ConfigError, gatewaySettings } from './config.ts';
import { loadOrCreateGatewayKey } from './keys.ts';
import { jsonLogger, silentLogger } from './log.ts';
import { GatewayMetrics, metricsServer } from './metrics.ts';
import { describeStore, openSubmissionStoreWaiting } from './open-store.ts';
import { createGateway } from './server.ts';
import { ArchiveIndex, gatewayIndexSource } from './archive-index.ts';
import { StorageError } from './store.ts';

const HELP = `The record-chain intake gateway: POST /record-chain/preflight and /record-chain/submit, signed receipts
(intake only), GET /record-chain/receipts/{id} and /record-chain/submissions/{submission_sha256}, /healthz
(liveness), /readyz (readiness). The HTTP contract: src/gateway/README.md and
/api/gateway-openapi.json; running it in production: docs/gateway-operations.md.

Usage: npm run gateway     (settings come from the environment; SIGINT or SIGTERM stops it cleanly)

  HOST, PORT                  where to listen (default 127.0.0.1:8787)
  GATEWAY_DATA_DIR            the SQLite store and the gateway's signing key (default .gateway-data/)
  GATEWAY_DATABASE_URL        postgres://… : a PostgreSQL store shared by several instances (unset: SQLite)
  GATEWAY_TRUSTED_PROXIES     addresses or CIDR ranges of reverse proxies whose forwarding header is believed
  ECHO_GATEWAY_MCP=1           the archive's MCP server at /mcp (Streamable HTTP, stateless, no keys; default off)
  GATEWAY_RATE_LIMIT=off, GATEWAY_MAX_IN_FLIGHT, GATEWAY_METRICS, GATEWAY_LOG, …  (src/gateway/config.ts lists all)
  ECHO_GATEWAY_INDEX_URL      the public index guardian retirements and classification updates are checked
                              against (default <SITE_URL>/api/index.json; an absolute file path is allowed)
  SITE_URL, GATEWAY_URL       the public addresses written into receipts
`;

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

async function main(): Promise<void> {
  if (process.argv.slice(2).some((a) => a === '--help' || a === '-h')) {
    process.stdout.write(HELP);
    return;
  }
  const settings = gatewaySettings();
  const keys = loadOrCreateGatewayKey(settings.dataDir);
  const logger = settings.log === 'off' ? silentLogger : jsonLogger();
  const metrics = settings.metrics.kind === 'off' ? undefined : new GatewayMetrics();
  // The gateway listens while the store opens (PostgreSQL: connecting, migrations under the lock other instances may
  // hold): /readyz answers 503 not_ready meanwhile, and the store's routes 503 with Retry-After. A PostgreSQL that
  // cannot be reached yet (down, restarting) is waited for, not ready, and the "listening on" line is printed once
  // the store is open; a store that cannot be opened for another reason (a wrong password, no such database) stops
  // the process (exit 2).
  const site = siteConfig();
  let archiveIndex: ArchiveIndex;
  try {
    archiveIndex = new ArchiveIndex(gatewayIndexSource(process.env, site.baseUrl));
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  let boundPort: number | undefined;
  const opening = openSubmissionStoreWaiting(settings, (err, retryInMs) => {
    // Not the "listening on" line (scripts wait for that one to send traffic).
    const at = boundPort === undefined ? '' : ` at http://${settings.host}:${boundPort}`;
    console.error(`gateway: not ready: ${err.message}; trying again in ${(retryInMs / 1000).toFixed(1)} s (/readyz${at} answers 503 meanwhile)`);
  }).then((opened) => (metrics ? metrics.instrument(opened) : opened));
  const gateway = createGateway({
    store: opening,
    keys,
    rateLimit: settings.rateLimit,
    maxInFlight: settings.maxInFlight,
    site,
    archiveIndex,
    logger,
    ...(settings.clientAddress ? { clientAddress: settings.clientAddress } : {}),
    ...(metrics ? { metrics } : {}),
    ...(settings.metrics.kind === 'path' ? { metricsPath: settings.metrics.path } : {}),
    ...(settings.mcp ? { mcp: { allowedHosts: settings.mcp.allowedHosts, version: packageVersion() } } : {}),
  });
  const port = await gateway.listen(settings.port, settings.host);
  boundPort = port;
  let store: Awaited<typeof opening>;
  try {
    store = await opening;
  } catch (err) {
    await gateway.close();
    throw err;
  }
  let metricsListener: ReturnType<typeof metricsServer> | undefined;
  if (metrics && settings.metrics.kind === 'listener') {
    const { host, port: metricsPort } = settings.metrics;
    metricsListener = metricsServer(metrics);
    await new Promise<void>((resolve, reject) => metricsListener!.once('error', reject).listen(metricsPort, host, resolve));
  }
  const metricsAt =
    settings.metrics.kind === 'listener' ? `http://${settings.metrics.host}:${settings.metrics.port}/metrics` : settings.metrics.kind === 'path' ? settings.metrics.path : 'off';
  // The plain line first: scripts and tests wait for "listening on URL".
  console.log(`record-chain gateway listening on http://${settings.host}:${port} (store ${describeStore(settings)}, key ${keys.keyId}, metrics ${metricsAt})`);
  logger.log('info', 'listening', { url: `http://${settings.host}:${port}`, store: describeStore(settings), gateway_key_id: keys.keyId, metrics: metricsAt, trusted_proxies: Boolean(settings.clientAddress) });
  const stop = () => {
    metricsListener?.close();
    void gateway.close().then(() => store.close()).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Compile the schema validators (first-error and all-errors) now rather than on the first valid and the first
  // invalid submission, which would each wait about a second.
  warmSchemas(SUBMISSION_SCHEMA_ID);
}

main().catch((err: unknown) => {
  console.error(`gateway: ${err instanceof ConfigError || err instanceof StorageError || err instanceof KeyFileError ? err.message : String((err as Error).stack ?? err)}`);
  process.exit(2);
});
