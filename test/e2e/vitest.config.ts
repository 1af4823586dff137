/**
 * @module
 * The browser tests: `npx vitest run -c test/e2e/vitest.config.ts`. One file at a time, each starting the stack
 * `npm run dev` starts, on free ports; they skip (saying why) where /usr/bin/chromium is missing.
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: resolve(dirname(fileURLToPath(import.meta.url)), "../.."),
  test: {
    name: "e2e",
    environment: "node",
    include: ["test/e2e/**/*.test.ts"],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
