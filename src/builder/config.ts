/**
 * The builder's defaults: the site and gateway it was built for, and its own version. scripts/build-builder.ts
 * bakes them into the bundle (esbuild `define`); run unbundled (tests, development) they come from the site
 * configuration of the environment.
 */
import { siteConfig } from '../core/config.ts';

export interface BuilderConfig {
  /** The site's base URL, no trailing slash: the public index is `${baseUrl}/api/index.json`. */
  baseUrl: string;
  /** The intake gateway's base URL, no trailing slash. */
  gatewayUrl: string;
  version: string;
}

export const CLIENT_NAME = 'echo-archive-record-chain-builder';

declare const __RECORD_CHAIN_BUILDER_CONFIG__: BuilderConfig | undefined;

export function builderConfig(): BuilderConfig {
  if (typeof __RECORD_CHAIN_BUILDER_CONFIG__ !== 'undefined' && __RECORD_CHAIN_BUILDER_CONFIG__) return __RECORD_CHAIN_BUILDER_CONFIG__;
  const { baseUrl, gatewayUrl } = siteConfig();
  return { baseUrl, gatewayUrl, version: '0.0.0-dev' };
}

export function defaultIndexUrl(): string {
  return `${builderConfig().baseUrl}/api/index.json`;
}

export function defaultKeysUrl(): string {
  return `${builderConfig().baseUrl}/api/gateway-keys.json`;
}
