/**
 * Echo texts rendered ahead of their pages in worker threads (src/site/echo-prerender.ts), taken by the pages
 * through echoHtml (src/site/echo-html.ts): the same HTML as rendering on the page, and only ever for the very text
 * it was rendered from.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { renderUntrustedMarkdown } from '../../src/core/markdown/render.ts';
import { echoHtml, setPrerenderedEchoes } from '../../src/site/echo-html.ts';
import { ECHO_MARKDOWN_OPTIONS } from '../../src/site/echo-markdown-options.ts';
import { echoRenderThreads, startEchoPrerender } from '../../src/site/echo-prerender.ts';
import { publishRecord, validEcho } from '../publish/helpers.ts';

const quiet = { info: () => {}, warn: (m: string) => warnings.push(m) };
let warnings: string[] = [];
afterEach(() => {
  setPrerenderedEchoes(undefined);
  warnings = [];
});

/** What the pool has handed to the pages (the process-wide slot echoHtml reads). */
const handedOver = () => (globalThis as Record<symbol, Map<string, unknown> | undefined>)[Symbol.for('echo-archive.prerendered-echo-html')];
const page = (echo: string) => renderUntrustedMarkdown(echo, ECHO_MARKDOWN_OPTIONS);

describe('echoHtml', () => {
  it('renders the echo itself when nothing was rendered ahead', () => {
    const echo = '# Heading\n\n<script>alert(1)</script> [x](javascript:alert(1))';
    expect(echoHtml('echo-2026-11-21-000001', echo)).toBe(page(echo));
    expect(page(echo)).toContain('<h4>Heading</h4>');
  });

  it('takes a result rendered ahead for the same text, once', () => {
    const results = new Map([['a', { source: 'text', html: '<p>ahead</p>' }]]);
    setPrerenderedEchoes(results);
    expect(echoHtml('a', 'text')).toBe('<p>ahead</p>');
    expect(results.has('a')).toBe(false);
    expect(echoHtml('a', 'text')).toBe(page('text'));
  });

  it('never uses a result rendered from another text', () => {
    setPrerenderedEchoes(new Map([['a', { source: 'older text', html: '<p>stale</p>' }]]));
    expect(echoHtml('a', 'text')).toBe(page('text'));
  });
});

describe('startEchoPrerender', () => {
  const records = Array.from({ length: 150 }, (_, i) => {
    const seq = String(i + 1).padStart(6, '0');
    const echo = `Record ${i}: **bold**, <img src=x onerror=alert(${i})>, [link](https://example.org/${i})\n\n## Part ${i}`;
    return publishRecord(`2026/echo-2026-11-21-${seq}.json`, { ...validEcho(), echo });
  });

  it('renders every echo in worker threads, exactly as the page would', async () => {
    const run = startEchoPrerender([...records, publishRecord('2026/echo-2026-11-21-999999.json', { ...validEcho(), echo: undefined })], quiet, 1);
    try {
      await run.settled;
      expect(warnings).toEqual([]);
      expect(handedOver()?.size).toBe(records.length);
      for (const r of records) expect(echoHtml(r.id, r.record.echo as string)).toBe(page(r.record.echo as string));
      expect(handedOver()?.size).toBe(0);
    } finally {
      await run.stop();
    }
  });

  it('with 0 threads renders nothing ahead: pages render their own', async () => {
    const run = startEchoPrerender(records, quiet, 0);
    await run.settled;
    expect(handedOver()).toBeUndefined();
    await run.stop();
  });

  it('after stop, results are gone and pages render their own', async () => {
    const run = startEchoPrerender(records, quiet, 1);
    await run.settled;
    expect(handedOver()?.size).toBe(records.length);
    await run.stop();
    expect(handedOver()).toBeUndefined();
    const r = records[0]!;
    expect(echoHtml(r.id, r.record.echo as string)).toBe(page(r.record.echo as string));
  });
});

describe('echoRenderThreads', () => {
  it('uses one fewer than the cores, at most 3', () => {
    expect(echoRenderThreads({}, 1)).toBe(0);
    expect(echoRenderThreads({}, 2)).toBe(1);
    expect(echoRenderThreads({}, 16)).toBe(3);
  });

  it('takes ECHO_RENDER_THREADS, and refuses anything but a whole number from 0 to 64', () => {
    expect(echoRenderThreads({ ECHO_RENDER_THREADS: '0' }, 8)).toBe(0);
    expect(echoRenderThreads({ ECHO_RENDER_THREADS: ' 5 ' }, 2)).toBe(5);
    for (const bad of ['-1', '1.5', 'many', '65']) {
      expect(() => echoRenderThreads({ ECHO_RENDER_THREADS: bad }, 2)).toThrow(/ECHO_RENDER_THREADS must be a whole number/);
    }
  });
});
