/** `npm run gateway`: the intake gateway (see server.ts and config.ts). */
import { siteConfig } from '../core/config.ts';
import { ConfigError, gatewaySettings } from './config.ts';
import { loadOrCreateGatewayKey } from './keys.ts';
import { createGateway } from './server.ts';
import { SqliteSubmissionStore, StorageError } from './store.ts';

async function main(): Promise<void> {
  const settings = gatewaySettings();
  const keys = loadOrCreateGatewayKey(settings.dataDir);
  const store = new SqliteSubmissionStore(settings.dataDir);
  const gateway = createGateway({ store, keys, rateLimit: settings.rateLimit, site: siteConfig() });
  const port = await gateway.listen(settings.port, settings.host);
  console.log(`record-chain gateway listening on http://${settings.host}:${port} (data ${settings.dataDir}, key ${keys.keyId})`);
  const stop = () => {
    void gateway.close().then(() => store.close()).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(`gateway: ${err instanceof ConfigError || err instanceof StorageError ? err.message : String((err as Error).stack ?? err)}`);
  process.exit(2);
});
