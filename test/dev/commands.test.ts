import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { delimiter, dirname, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/** The benches load wrangler and esbuild before they read their options: seconds each, more on a busy machine. */
const SPAWN_TIMEOUT_MS = 60_000;
const SLOW_TEST_MS = 150_000;

/** Runs a dev/ script as `npm run` does, without the stack's or Discord's settings. */
function run(script: string, args: string[], env: Record<string, string> = {}) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(DISCORD_|BOT_NAME$|PORT$)/.test(k)));
  const result = spawnSync(process.execPath, [script, ...args], {
    env: { ...clean, ...env },
    encoding: "utf8",
    timeout: SPAWN_TIMEOUT_MS,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("the npm run scripts of dev/", () => {
  it("answer --help with their usage and the settings they read, and do nothing else", () => {
    const dev = run("dev/start.ts", ["--help"]);
    expect(dev.code).toBe(0);
    expect(dev.stdout).toMatch(/^Usage: npm run dev/);
    for (const setting of ["PORT", "INSPECTOR_PORT", "SIMULATOR_PORT", "REDIS_URL", "ADMIN_TOKEN", "--json"])
      expect(dev.stdout).toContain(setting);

    const register = run("dev/discord-register.ts", ["--help"]);
    expect(register.code).toBe(0);
    for (const setting of ["DISCORD_APPLICATION_ID", "DISCORD_BOT_TOKEN", "DISCORD_GUILD_ID", "BOT_NAME"])
      expect(register.stdout).toContain(setting);
  });

  it("name a missing setting in one line, without a stack trace or a validator's wording", () => {
    const register = run("dev/discord-register.ts", []);
    expect(register.code).toBe(1);
    expect(register.stdout).toBe("");
    expect(register.stderr).toBe(
      "npm run discord:register: DISCORD_APPLICATION_ID and DISCORD_BOT_TOKEN are not set (see `npm run discord:register -- --help`)\n",
    );
  });

  it("name a bad option or port in one line", () => {
    expect(run("dev/start.ts", ["--verbose"]).stderr).toBe(
      "npm run dev: Unknown option '--verbose' (see `npm run dev -- --help`)\n",
    );
    expect(run("dev/start.ts", [], { PORT: "eighty" }).stderr).toBe(
      'npm run dev: PORT must be a port number (1-65535), not "eighty"\n',
    );
  });
});

describe("every npm run script", () => {
  const scripts = Object.entries(
    (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts,
  );
  /** `npm run <name> -- --help` as npm runs it: the script's command in a shell, with node_modules/.bin on PATH. */
  const help = (command: string) =>
    spawnSync("sh", ["-c", `${command} --help`], {
      env: {
        ...process.env,
        PATH: [resolve("node_modules/.bin"), dirname(process.execPath), process.env.PATH].join(delimiter),
      },
      encoding: "utf8",
      timeout: SPAWN_TIMEOUT_MS,
    });

  it.each(scripts)(
    "%s answers --help with its usage and exit code 0, doing nothing else",
    (name, command) => {
      // What runs TypeScript under Node.js starts with its version check (dev/node-version.mjs), silent on one new
      // enough.
      if (/\.ts\b|vitest/.test(command)) expect(command).toMatch(/^node dev\/node-version\.mjs && /);
      const result = help(command);
      expect(result.status, result.stderr).toBe(0);
      const own = command.replace(/^node dev\/node-version\.mjs && /, "");
      // Parley's own scripts print their usage and settings (dev/cli.ts); the tools' scripts print the tool's own help.
      if (own.startsWith("node ")) expect(result.stdout).toMatch(new RegExp(`^Usage: npm run ${name}\\b`));
      else expect(result.stdout).toContain(own.split(" ")[0]);
    },
    SLOW_TEST_MS,
  );

  it(
    "names a missing input of a bench in one line, without a stack trace",
    () => {
      const decision = run("bench/decision/run.ts", ["--file", "no/such/file.jsonl"]);
      expect(decision.code).toBe(1);
      expect(decision.stderr).toMatch(
        /^npm run bench:decision: no file at no\/such\/file\.jsonl: .*irc-disentanglement.*convert\.ts.*\n$/,
      );
      expect(decision.stderr.split("\n")).toHaveLength(2);
      const recall = run("bench/recall/run.ts", ["--file", "no/such/file.jsonl"]);
      expect(recall.code).toBe(1);
      expect(recall.stderr).toMatch(/^npm run bench:recall: no file at no\/such\/file\.jsonl: [^\n]*\n$/);
    },
    SLOW_TEST_MS,
  );

  it(
    "names a bad bench option in one line",
    () => {
      expect(run("bench/load/run.ts", ["--rate", "100000"]).stderr).toMatch(
        /^npm run bench:load: --rate: [^\n]*\(see `npm run bench:load -- --help`\)\n$/,
      );
      expect(run("bench/bundle/run.ts", ["--fast"]).stderr).toBe(
        "npm run bench:bundle: Unknown option '--fast' (see `npm run bench:bundle -- --help`)\n",
      );
    },
    SLOW_TEST_MS,
  );
});
