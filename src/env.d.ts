/** Values the archive's integration (src/site/build/integration.ts) defines for the pages at build time. */
interface ImportMetaEnv {
  /** The stylesheet's versioned href (src/site/build/1-stylesheet.ts). */
  readonly ECHO_STYLESHEET: string;
  /**
   * True under `astro dev` only. Not import.meta.env.DEV, which follows NODE_ENV: a build run with NODE_ENV=test
   * (as test runners set it) or development would otherwise take the dev server's paths.
   */
  readonly ECHO_DEV_SERVER: boolean;
  /** A local build's addresses for its banner (src/site/build/site-build.ts, localBuildOf); null in a deploy build. */
  readonly ECHO_LOCAL_BUILD: { siteUrl: string; gatewayUrl: string } | null;
}
