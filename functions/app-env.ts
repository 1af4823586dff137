/**
 * @module
 * The Hono env of every route: the Worker's bindings, and what a middleware hands on (the raw body it verified).
 */
export interface AppEnv {
  Bindings: Record<string, unknown>;
  Variables: {
    /** The request body as read once by a signature check (functions/middleware/qstash-signature.ts). */
    rawBody: string;
  };
}
