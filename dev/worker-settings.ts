/**
 * @module
 * The names of every setting the Worker reads, taken from the settings schemas themselves: the core's
 * (lib/config.ts, the tools' included) and each platform's (its adapter's `settings`, which reads every name of
 * its shape), so that a platform added later brings its own. `npm run dev` passes any of them from the
 * environment to the local Worker (./dev-vars.ts); docs/configuration.md lists the same names (its test).
 */
import { settingsShape } from "../lib/config.ts";
import { adapters } from "../lib/platforms/index.ts";

/** Every setting name of the Worker, the core's first, then each platform's. */
export const WORKER_SETTINGS: ReadonlySet<string> = new Set([
  ...Object.keys(settingsShape),
  ...adapters.flatMap((adapter) => Object.keys(adapter.settings.read({}).settings as object)),
]);
