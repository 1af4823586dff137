/**
 * @module
 * Structured logs: one JSON object per line with a stable `event` name.
 * Callers pass ids, counts and reasons; never secrets, message text, or an error's message (`errorMessage` says what
 * a line may show of an error).
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

/** A Redis error's code: the first word of the server's error text (ERR, NOSCRIPT, WRONGTYPE, BUSY...). */
const REDIS_ERROR_CODE = /^(?:Command failed: )?([A-Z][A-Z_]{1,19})\b/;

/**
 * What a log line or a response may say about a thrown value: its class, with the HTTP status when it carries one
 * (`QstashError HTTP 500`) or a Redis error's code (`UpstashError ERR`). Never its message: an Upstash HTTP error's
 * message embeds the whole command, with message text and phone numbers, and other libraries' messages may too.
 */
export function errorMessage(err: unknown): string {
  if (!(err instanceof Error)) return typeof err;
  const status = (err as { status?: unknown }).status;
  if (typeof status === "number") return `${err.name} HTTP ${status}`;
  const code = err.name === "UpstashError" ? REDIS_ERROR_CODE.exec(err.message)?.[1] : undefined;
  return code ? `${err.name} ${code}` : err.name;
}
