/**
 * @module
 * Structured logs: one JSON object per line with a stable `event` name.
 * Callers pass ids, counts and reasons; never secrets or whole message bodies.
 */

export type LogFields = Record<string, string | number | boolean | null | undefined | string[] | number[]>;

export interface Logger {
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

function line(level: string, event: string, fields: LogFields | undefined): string {
  return JSON.stringify({ event, level, ...fields });
}

export const logger: Logger = {
  info: (event, fields) => console.log(line("info", event, fields)),
  warn: (event, fields) => console.warn(line("warn", event, fields)),
  error: (event, fields) => console.error(line("error", event, fields)),
};

/** The message of an unknown thrown value, for a log field. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
