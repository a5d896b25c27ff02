/**
 * Where a build says what it is doing, and a logger on the console for a build that runs without Astro
 * (scripts/build.ts): its lines look like those of Astro's integration logger ("12:00:00 [echo-archive] …"), so that
 * a build's log reads the same either way.
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
