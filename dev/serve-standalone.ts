/**
 * @module
 * Runs one local stand-in on its own (`node dev/fakes/slack.ts`, `node dev/qstash/server.ts`, ...): starts it, logs
 * where it listens, stops it on Ctrl-C, and exits with the reason when it cannot start.
 */
import * as z from "zod";
import { errorMessage, logger } from "../lib/log.ts";
import { describeIssues } from "../lib/zod-issues.ts";

export interface StandaloneServer {
  url: string;
  close(): Promise<void>;
}

/** Logs `<name>_listening` with the URL, or `<name>_start_failed` with the reason and exit code 1 (a settings
 *  schema that failed says which variable and why). */
export function serveStandalone(name: string, start: () => Promise<StandaloneServer>): void {
  start().then(
    (server) => {
      logger.info(`${name}_listening`, { url: server.url });
      const stop = () => void server.close().then(() => process.exit(0));
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    },
    (err: unknown) => {
      const error = err instanceof z.core.$ZodError ? describeIssues(err) : errorMessage(err);
      logger.error(`${name}_start_failed`, { error });
      process.exit(1);
    },
  );
}
