/**
 * The files that run the gateway (issue 15) stay honest: the Dockerfile passes the Dockerfile linter
 * (dockerfile-utils, the validator of the VS Code Docker language server) without a warning; every npm script they
 * run exists; every file they copy or mount is in the repository; every setting they pass is one the gateway reads;
 * the health checks ask a route the gateway serves (its OpenAPI description); the compose file and the systemd unit
 * have what they need (a shared database and key for several instances, a trusted proxy, non-root).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate as lintDockerfile } from 'dockerfile-utils';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { gatewayOperations, HEALTH_PATH } from '../../src/core/record-chain/index.ts';
import { gatewaySettings } from '../../src/gateway/config.ts';
import { REPO_ROOT } from '../gateway/child-gateway.ts';

const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');
const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;

/** The settings the gateway reads: every upper-case name in its configuration modules. */
const KNOWN_SETTINGS = new Set(['NODE_ENV', ...[read('src/gateway/config.ts'), read('src/core/config.ts')].flatMap((src) => [...src.matchAll(/\b(HOST|PORT|RECORDS_DIR|SITE_URL|GATEWAY_[A-Z_]+)\b/g)].map((m) => m[1]!))]);

/** Dockerfile instructions, continuation lines joined, comments dropped. */
function instructions(text: string): { keyword: string; args: string }[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [keyword, ...rest] = l.split(/\s+/);
      return { keyword: keyword!.toUpperCase(), args: rest.join(' ') };
    });
}

function npmScriptsIn(text: string): string[] {
  return [...text.matchAll(/npm(?:"\s*,\s*"|\s+)run(?:"\s*,\s*"|\s+)([\w:-]+)/g)].map((m) => m[1]!);
}

describe('Dockerfile', () => {
  const text = read('Dockerfile');
  const steps = instructions(text);

  it('passes the Dockerfile linter with no error or warning, and the linter does catch a broken one', () => {
    expect(lintDockerfile(text).map((d) => `${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
    expect(lintDockerfile('FROM node:22\nEXPOSE 8787/tcpx\nHEALTHCHECK --interval=soon CMD true\n').length).toBeGreaterThan(0);
  });

  it('runs `npm run gateway` as a non-root user, with a health check on /healthz', () => {
    const cmd = steps.filter((s) => s.keyword === 'CMD').at(-1)!;
    expect(JSON.parse(cmd.args)).toEqual(['npm', 'run', 'gateway']);
    expect(scripts.gateway).toContain('src/gateway/main.ts');
    const user = steps.filter((s) => s.keyword === 'USER').at(-1)!;
    expect(['root', '0', '']).not.toContain(user.args);
    const health = steps.find((s) => s.keyword === 'HEALTHCHECK')!;
    expect(health.args).toContain(`'${HEALTH_PATH}'`);
    expect(gatewayOperations().some((op) => op.path === HEALTH_PATH && op.method === 'get')).toBe(true);
  });

  it('copies only what exists, and what the gateway needs to start', () => {
    const copied = steps.filter((s) => s.keyword === 'COPY' && !s.args.startsWith('--from')).flatMap((s) => s.args.split(/\s+/).slice(0, -1));
    for (const path of copied) expect(existsSync(join(REPO_ROOT, path)), path).toBe(true);
    // Whatever the gateway imports is under the copied folders (no import reaches src/site, src/pages, src/builder…).
    for (const file of ['src/gateway/main.ts', 'src/gateway/server.ts', 'src/gateway/stores/postgres.ts']) expect(copied.some((c) => file.startsWith(c))).toBe(true);
    const imports = [...read('src/gateway/main.ts').matchAll(/from '(\.\.?\/[^']+)'/g)].map((m) => m[1]!);
    expect(imports.every((i) => i.startsWith('./') || i.startsWith('../core/'))).toBe(true);
  });

  it('sets only settings the gateway reads', () => {
    const env = steps.filter((s) => s.keyword === 'ENV').flatMap((s) => [...s.args.matchAll(/([A-Z_]+)=/g)].map((m) => m[1]!));
    expect(env.filter((name) => !KNOWN_SETTINGS.has(name))).toEqual([]);
    expect(env).toContain('GATEWAY_DATA_DIR');
  });
});

describe('compose.yaml', () => {
  const compose = parseYaml(read('compose.yaml')) as {
    services: Record<string, { build?: string; image?: string; environment?: Record<string, string>; volumes?: string[]; deploy?: { replicas?: number }; depends_on?: Record<string, { condition: string }> | string[]; healthcheck?: { test: string[] }; ports?: string[] }>;
    networks: { backend: { ipam: { config: { subnet: string }[] } } };
  };
  const gateway = compose.services.gateway!;

  it('runs several gateway instances on one PostgreSQL behind a proxy, sharing one key', () => {
    expect(gateway.build).toBe('.');
    expect(gateway.deploy?.replicas).toBeGreaterThanOrEqual(2);
    expect(gateway.environment?.GATEWAY_DATABASE_URL).toMatch(/^postgres:\/\/[^@]+@postgres:5432\//);
    expect(gateway.volumes?.some((v) => v.endsWith(':/var/lib/echo-gateway'))).toBe(true);
    expect(gateway.depends_on).toMatchObject({ postgres: { condition: 'service_healthy' } });
    expect(compose.services.postgres!.healthcheck!.test.slice(0, 2)).toEqual(['CMD', 'pg_isready']);
    // The gateway instances publish no port: only the proxy does.
    expect(gateway.ports).toBeUndefined();
    expect(compose.services.proxy!.ports).toEqual(['8787:8787']);
  });

  it('its settings are valid gateway settings; the trusted proxies are the compose network', () => {
    const env = gateway.environment!;
    expect(Object.keys(env).filter((name) => !KNOWN_SETTINGS.has(name))).toEqual([]);
    const resolved = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replace(/\$\{[^}]+\}/g, 'x')]));
    const settings = gatewaySettings(resolved);
    expect(settings.clientAddress?.trustedProxies.check(compose.networks.backend.ipam.config[0]!.subnet.replace(/0\/24$/, '10'), 'ipv4')).toBe(true);
    expect(settings.metrics).toEqual({ kind: 'listener', host: '0.0.0.0', port: 9464 });
  });

  it('mounts files that exist; the proxy config balances over the gateway service and forwards the client', () => {
    for (const service of Object.values(compose.services)) {
      for (const v of service.volumes ?? []) if (v.startsWith('./')) expect(existsSync(join(REPO_ROOT, v.split(':')[0]!)), v).toBe(true);
    }
    const nginx = read('deploy/nginx/gateway.conf');
    expect(nginx).toMatch(/server gateway:8787/);
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
  });
});

describe('systemd unit', () => {
  const unit = read('deploy/systemd/echo-gateway@.service');
  const values = (key: string) => [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1]!);

  it('runs an npm script that exists, as an unprivileged user, with a data directory it may write', () => {
    expect(values('ExecStart')).toEqual(['/usr/bin/npm run gateway']);
    for (const name of npmScriptsIn(unit + read('Dockerfile'))) expect(scripts[name], `npm run ${name}`).toBeDefined();
    expect(values('User')[0]).not.toMatch(/^(root|0)?$/);
    expect(values('StateDirectory')).toEqual(['echo-gateway']);
    expect(values('Environment')).toContain('GATEWAY_DATA_DIR=/var/lib/echo-gateway');
  });

  it('its example settings file is a valid gateway configuration', () => {
    const env = Object.fromEntries(
      read('deploy/systemd/example.env')
        .split('\n')
        .filter((l) => l && !l.startsWith('#'))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    expect(Object.keys(env).filter((name) => !KNOWN_SETTINGS.has(name))).toEqual([]);
    expect(() => gatewaySettings(env)).not.toThrow();
    for (const e of values('Environment')) expect(KNOWN_SETTINGS.has(e.split('=')[0]!), e).toBe(true);
  });
});
