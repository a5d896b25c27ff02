/**
 * The gateway's structured log: one JSON object per line on stdout (for journald, `docker logs`, any log shipper).
 * Hand-written rather than pino: a line is one JSON.stringify and one synchronous write, so no line is lost when the
 * process is killed (pino's asynchronous buffer would drop the last lines on SIGKILL, the case the crash tests make).
 */
export type LogLevel = 'info' | 'warn' | 'error';

export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  log(level: LogLevel, msg: string, fields?: LogFields): void;
}

/** Writes to `write` (default stdout); GATEWAY_LOG=off gives `silentLogger`. */
export function jsonLogger(write: (line: string) => void = (line) => process.stdout.write(line)): Logger {
  return {
    log(level, msg, fields = {}) {
      write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }) + '\n');
    },
  };
}

export const silentLogger: Logger = { log: () => undefined };
