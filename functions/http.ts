/**
 * @module
 * What the routes share: the Hono env type and the error that turns into a 503 (so platforms retry).
 */
import { errorMessage } from "../lib/log.ts";

export interface AppEnv {
  Bindings: Record<string, unknown>;
}

/** Redis or QStash could not be reached: the platform should retry the delivery. */
export class Unavailable extends Error {
  readonly dependency: string;
  constructor(dependency: string, cause: unknown) {
    super(errorMessage(cause));
    this.name = "Unavailable";
    this.dependency = dependency;
  }
}
