/** `npm run gateway`: the intake gateway (see server.ts and config.ts). */
import { siteConfig } from '../core/config.ts';
import { SUBMISSION_SCHEMA_ID } from '../core/record-chain/index.ts';
import { warmSchemas } from '../core/schema/compile.ts';
import { ConfigError, gatewaySettings } from './config.ts';
import { loadOrCreateGatewayKey } from './keys.ts';
import { createGateway } from './server.ts';
import { SqliteSubmissionStore, StorageError } from './store.ts';

async function main(): Promise<void> {
  const settings = gatewaySettings();
  const keys = loadOrCreateGatewayKey(settings.dataDir);
  const store = new SqliteSubmissionStore(settings.dataDir);
  const gateway = createGateway({ store, keys, rateLimit: settings.rateLimit, maxInFlight: settings.maxInFlight, site: siteConfig() });
  const port = await gateway.listen(settings.port, settings.host);
  console.log(`record-chain gateway listening on http://${settings.host}:${port} (data ${settings.dataDir}, key ${keys.keyId})`);
  const stop = () => {
    void gateway.close().then(() => store.close()).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Compile the schema validators (first-error and all-errors) now rather than on the first valid and the first
  // invalid submission, which would each wait about a second.
  warmSchemas(SUBMISSION_SCHEMA_ID);
}

main().catch((err: unknown) => {
  console.error(`gateway: ${err instanceof ConfigError || err instanceof StorageError ? err.message : String((err as Error).stack ?? err)}`);
  process.exit(2);
});
