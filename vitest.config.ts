import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    globalSetup: ["test/support/global-setup.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "node",
          environment: "node",
          include: ["test/unit/**/*.test.ts", "test/dev/**/*.test.ts"],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
