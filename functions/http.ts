/**
 * @module
 * What the routes share: the Hono env type.
 */

export interface AppEnv {
  Bindings: Record<string, unknown>;
}
