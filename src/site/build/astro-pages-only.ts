/**
 * `npm run build` runs `astro build` for Astro's own pages only (scripts/build.ts, src/site/build/outside-astro.ts):
 * the integration then leaves the archive alone and records what Astro made (src/site/build/integration.ts). It says
 * how one build runs, not what it makes, so it is not part of the key of Astro's output (cache/astro-output.ts).
 */
export const ASTRO_PAGES_ONLY_ENV = 'ECHO_ARCHIVE_ASTRO_PAGES_ONLY';

/** Whether this `astro build` makes Astro's own pages only. */
export function astroPagesOnly(env: Record<string, string | undefined> = process.env): boolean {
  return env[ASTRO_PAGES_ONLY_ENV] === '1';
}
