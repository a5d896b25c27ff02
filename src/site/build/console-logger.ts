/**
 * A build's logger on the console, for a build that runs without Astro (scripts/build.ts): its lines look like those
 * of Astro's integration logger ("12:00:00 [echo-archive] …"), so that a build's log reads the same either way.
 */
import type { ArchiveLogger } from './2-read-archive.ts';

const time = () => new Date().toTimeString().slice(0, 8);

export function consoleLogger(label: string): ArchiveLogger {
  return {
    info: (message) => console.log(`${time()} [${label}] ${message}`),
    warn: (message) => console.warn(`${time()} [WARN] [${label}] ${message}`),
  };
}
