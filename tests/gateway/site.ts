/**
 * The archive as a published site on 127.0.0.1, built on each request with the build's own parts: the records as
 * the build reads them (readSiteArchive: every file validated, the build fails on an invalid one), the public index
 * (/api/index.json, the core's buildPublicIndex), the raw records (/records/<id>.json) and the record pages
 * (/records/<id>/, the string renderer the build runs on its worker threads, with the relations recordJobs works
 * out once), and the guardian registry (/api/guardian-registry.json). For end-to-end tests that must read back what a build would publish, without a whole Astro build.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { deriveArchiveViews, guardianRegistryText } from '../../src/core/publish/archive-views.ts';
import { buildPublicIndex } from '../../src/core/publish/public-index.ts';
import { readSiteArchive } from '../../src/site/build/2-read-archive.ts';
import { sitePaths } from '../../src/site/model/paths.ts';
import { recordJobs } from '../../src/site/build/3-record-pages.ts';
import { readRecordPage } from '../../src/site/build/3-record-pages-worker.ts';
import { echoHtml } from '../../src/site/render/echo-html.ts';
import { renderRecordPage } from '../../src/site/render/record-page.ts';

const quiet = { info: () => {}, warn: () => {} };

export interface TestSite {
  url: string;
  server: Server;
  close: () => Promise<void>;
}

export function serveSite(root: string): Promise<TestSite> {
  const server = createServer((req, res) => {
    void (async () => {
      try {
        const records = await readSiteArchive(root, quiet);
        const path = req.url ?? '/';
        if (path === '/api/index.json') {
          res.writeHead(200, { 'content-type': 'application/json' });
          return void res.end(buildPublicIndex(records).index.text);
        }
        if (path === '/api/guardian-registry.json') {
          res.writeHead(200, { 'content-type': 'application/json' });
          return void res.end(guardianRegistryText(deriveArchiveViews(records).registry));
        }
        const raw = /^\/records\/([^/]+)\.json$/.exec(path);
        const file = raw && records.find((r) => r.id === decodeURIComponent(raw[1]!));
        if (file) {
          res.writeHead(200, { 'content-type': 'application/json' });
          return void res.end(readFileSync(file.file));
        }
        const page = /^\/records\/([^/]+)\/$/.exec(path);
        const job = page && recordJobs(records).find((j) => j.page.entry.id === decodeURIComponent(page[1]!));
        if (job) {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          return void res.end(renderRecordPage(readRecordPage(job), { paths: sitePaths('/'), site: undefined, echoHtml }).main);
        }
        res.writeHead(404).end();
      } catch (err) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
      }
    })();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
        server,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    ),
  );
}
