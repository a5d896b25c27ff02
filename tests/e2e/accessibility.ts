/**
 * Accessibility and layout-stability checks for the end-to-end tests, run inside a page that is already loaded:
 * axe-core (Deque's rule engine, the one browser accessibility tools use) for WCAG 2.2 A/AA and its best practices,
 * and the browser's own record of layout shifts.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The rule sets checked: WCAG 2.0–2.2 at levels A and AA, and axe's best practices. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: string[]; failureSummary?: string }[] }[];
}

/**
 * Every axe violation on the page, one line each: rule, impact, what it means, and the first elements found. Axe is
 * evaluated by the test driver, not loaded by the page, so the page's Content-Security-Policy stays as it is.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(
    (tags) => (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResult> } }).axe.run(document, { runOnly: { type: 'tag', values: tags } }),
    AXE_TAGS,
  );
  return result.violations.map(
    (v) =>
      `${v.id} (${v.impact ?? 'no impact given'}): ${v.help}: ` +
      v.nodes
        .slice(0, 3)
        .map((n) => `${n.target.join(' ')}${n.failureSummary ? ` (${n.failureSummary.replace(/\s+/g, ' ').trim()})` : ''}`)
        .join('; '),
  );
}

/**
 * The cumulative layout shift of the page since it started loading (the sum of every shift not caused by input, as
 * the browser reports them), after `settleMs` for late shifts.
 */
export async function layoutShift(page: Page, settleMs = 500): Promise<number> {
  return page.evaluate(
    (settle) =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
            if (!entry.hadRecentInput) total += entry.value;
          }
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), settle);
      }),
    settleMs,
  );
}
