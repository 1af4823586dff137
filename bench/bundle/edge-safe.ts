/**
 * @module
 * What may not be in the Worker bundle: Node built-ins that workerd's nodejs_compat does not provide (or that
 * the project keeps out of lib/ and functions/ on purpose), the Node-side folders, and Node-only packages.
 */
import type { ReachedModule } from "./graph.ts";

/** Built-ins workerd implements under nodejs_compat that are safe to use from lib/ (no file system, no sockets). */
const NODE_BUILTINS_ALLOWED: ReadonlySet<string> = new Set([
  "assert",
  "async_hooks",
  "buffer",
  "crypto",
  "diagnostics_channel",
  "events",
  "path",
  "process",
  "stream",
  "stream/web",
  "string_decoder",
  "timers",
  "url",
  "util",
  "zlib",
]);

/** Dev dependencies whose types alone lib/ uses (`import type`, erased): the platforms' own API definitions. */
const TYPES_ONLY_PACKAGES = ["@slack/web-api", "@slack/types", "twilio"];

/** Folders that run in Node only: local stand-ins, benchmarks, tests. */
const NODE_ONLY_FOLDERS = ["dev/", "bench/", "test/"];

/** Packages that need Node (sockets, native code) or are dev tools that must never ship. */
const NODE_ONLY_PACKAGES = [
  "ws",
  "ioredis",
  "gpt-tokenizer",
  "vitest",
  "wrangler",
  "miniflare",
  "playwright-core",
  "@types/node",
  ...TYPES_ONLY_PACKAGES,
];

const RUNTIME_MODULE_PREFIX = "cloudflare:";

export interface EdgeSafetyViolation {
  module: string;
  reason: string;
  via: string[];
}

export function edgeSafetyViolations(modules: readonly ReachedModule[]): EdgeSafetyViolation[] {
  const violations: EdgeSafetyViolation[] = [];
  for (const m of modules) {
    const reason = m.external ? externalProblem(m.path) : localProblem(m.path);
    if (reason) violations.push({ module: m.path, reason, via: m.via });
  }
  return violations;
}

function externalProblem(path: string): string | null {
  if (path.startsWith(RUNTIME_MODULE_PREFIX)) return null;
  const builtin = path.replace(/^node:/, "");
  return NODE_BUILTINS_ALLOWED.has(builtin) ? null : `Node built-in "${path}" is not available to the Worker`;
}

function localProblem(path: string): string | null {
  const folder = NODE_ONLY_FOLDERS.find((f) => path.startsWith(f));
  if (folder) return `${folder} is Node-only and must not be bundled`;
  const pkg = NODE_ONLY_PACKAGES.find((p) => path.includes(`node_modules/${p}/`));
  return pkg ? `package ${pkg} is Node-only or a dev tool` : null;
}
