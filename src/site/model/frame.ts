/**
 * The page frame's settings for this build, as the Astro pages see them: the base path and site URL from Astro's
 * configuration, the stylesheet's versioned href from the integration (src/site/build/integration.ts computes it once and
 * defines import.meta.env.ECHO_STYLESHEET, so the Astro pages and the record pages link the same URL; src/env.d.ts).
 */
import { paths } from './records.ts';
import type { SiteFrame } from '../render/page-frame.ts';

export const siteFrame: SiteFrame = {
  paths,
  site: import.meta.env.SITE,
  stylesheet: import.meta.env.ECHO_STYLESHEET,
  dev: import.meta.env.ECHO_DEV_SERVER,
  local: import.meta.env.ECHO_LOCAL_BUILD ?? undefined,
};
