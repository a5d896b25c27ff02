/**
 * Where a build says what it is doing, and a logger on the console for the site build of `npm run build`, which runs
 * outside Astro's process (scripts/build.ts): its lines look like those of Astro's integration logger
 * ("12:00:00 [echo-archive] …"), so that a build's log reads the same inside a bare `astro build`.
 */

/** Where the build says what it is doing (Astro's integration logger, or the console). */
export interface ArchiveLogger {
  info(message: string): void;
  warn(message: string): void;
}

const time = () => new Date().toTimeString().slice(0, 8);

export function consoleLogger(label: string): ArchiveLogger {
  return {
    info: (message) => console.log(`${time()} [${label}] ${message}`),
    warn: (message) => console.warn(`${time()} [WARN] [${label}] ${message}`),
  };
}
