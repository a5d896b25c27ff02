/**
 * Discovery of the archive's MCP server (issue 25): /llms.txt and /agents/ say how to connect (the stdio client
 * configuration in one line, the gateway's /mcp URL), /llms-full.txt is llms.txt with every agent document inline,
 * and no well-known MCP document is published (the MCP specification defines none; docs/mcp.md says why).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILDER_PATH, llmsTxt } from '../../src/core/publish/discovery.ts';
import { publishedDocuments } from '../../src/core/publish/documents.ts';
import { BUILDER_FILE, llmsFullTxt, mcpHttpUrl, mcpStdioConfig } from '../../src/core/publish/mcp-discovery.ts';
import { indexShardBytes } from '../../src/core/publish/public-index.ts';
import { readSiteArchive } from '../../src/site/build/2-read-archive.ts';
import { archivePages } from '../../src/site/render/archive-pages.ts';
import { frameOf } from '../../src/site/render/page-frame.ts';
import { REPO_ROOT } from '../helpers/records.ts';

const config = { baseUrl: 'https://archive.example.test/sub', gatewayUrl: 'https://gateway.example.test' };

describe('how to connect', () => {
  it('the stdio configuration is one line of JSON running the builder\'s mcp command against this site', () => {
    const line = mcpStdioConfig(config);
    expect(line).not.toContain('\n');
    expect(JSON.parse(line)).toEqual({
      mcpServers: { 'echo-archive': { command: 'node', args: ['record-chain-builder.mjs', 'mcp', '--site', config.baseUrl, '--key-dir', '<your key dir>'] } },
    });
    expect(BUILDER_PATH.endsWith(`/${BUILDER_FILE}`)).toBe(true);
  });

  it('the HTTP endpoint is the gateway\'s /mcp', () => {
    expect(mcpHttpUrl(config)).toBe('https://gateway.example.test/mcp');
  });

  it('llms.txt gives both and links llms-full.txt', () => {
    const text = llmsTxt(config);
    expect(text).toContain(mcpStdioConfig(config));
    expect(text).toContain(`where the gateway enables it (elsewhere a 404): https://gateway.example.test/mcp`);
    expect(text).toContain(`(${config.baseUrl}/llms-full.txt)`);
  });

  it('/agents/ says the same (the page renders the same helpers)', () => {
    const page = readFileSync(resolve(REPO_ROOT, 'src/pages/agents.astro'), 'utf8');
    expect(page).toContain('{mcpStdioConfig(config)}');
    expect(page).toContain('{mcpHttpUrl(config)}');
    expect(page).toContain("sitePath('llms-full.txt')");
  });
});

describe('llms-full.txt', () => {
  const short = llmsTxt(config);
  const full = llmsFullTxt(config, short);

  it('begins with llms.txt, word for word', () => {
    expect(full.startsWith(short.trimEnd() + '\n')).toBe(true);
  });

  it('carries every agent document of /api/ inline, exactly as served, under its URL', () => {
    const docs = publishedDocuments(config);
    expect(docs.map((d) => d.file)).toContain('agent-first-contact.json');
    for (const d of docs) {
      const heading = `### ${d.file} (${config.baseUrl}${d.path})\n\n\`\`\`json\n`;
      const at = full.indexOf(heading);
      expect(at, d.file).toBeGreaterThan(short.length - 2);
      const body = full.slice(at + heading.length, full.indexOf('\n```\n', at + heading.length));
      expect(body + '\n').toBe(d.text);
    }
  });

  it('fills the configuration\'s addresses and is published by the build', async () => {
    expect(full).not.toMatch(/\{base_url\}|\{gateway_url\}/);
    // The build writes it with the pages made from the whole archive (the archive's log decides the checkpoint link).
    const records = await readSiteArchive(resolve(REPO_ROOT, 'records'), { info: () => {}, warn: () => {} });
    const page = archivePages({ records, frame: frameOf({ base: '/', site: undefined, stylesheet: '' }), config, shardBytes: indexShardBytes() }).find((p) => p.path === 'llms-full.txt');
    expect(page?.make()).toBe(llmsFullTxt(config, llmsTxt(config, { checkpoint: false })));
  });
});

describe('no well-known MCP document', () => {
  it('the site publishes none: the MCP specification defines no well-known document for a server\'s description', () => {
    const wellKnown = resolve(REPO_ROOT, 'src/pages/.well-known');
    const files = existsSync(wellKnown) ? readdirSync(wellKnown, { recursive: true }).map(String) : [];
    expect(files.filter((f) => /mcp|server-card/i.test(f))).toEqual([]);
    expect(readFileSync(resolve(REPO_ROOT, 'docs/mcp.md'), 'utf8')).toMatch(/Server Card/);
  });
});
