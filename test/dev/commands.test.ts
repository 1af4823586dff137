import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

/** Runs a dev/ script as `npm run` does, without the stack's or Discord's settings. */
function run(script: string, args: string[], env: Record<string, string> = {}) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(DISCORD_|BOT_NAME$|PORT$)/.test(k)));
  const result = spawnSync(process.execPath, [script, ...args], { env: { ...clean, ...env }, encoding: "utf8", timeout: 20_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("the npm run scripts of dev/", () => {
  it("answer --help with their usage and the settings they read, and do nothing else", () => {
    const dev = run("dev/start.ts", ["--help"]);
    expect(dev.code).toBe(0);
    expect(dev.stdout).toMatch(/^Usage: npm run dev/);
    for (const setting of ["PORT", "INSPECTOR_PORT", "SIMULATOR_PORT", "REDIS_URL", "ADMIN_TOKEN", "--json"]) expect(dev.stdout).toContain(setting);

    const register = run("dev/discord-register.ts", ["--help"]);
    expect(register.code).toBe(0);
    for (const setting of ["DISCORD_APPLICATION_ID", "DISCORD_BOT_TOKEN", "DISCORD_GUILD_ID", "BOT_NAME"]) expect(register.stdout).toContain(setting);
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
    expect(run("dev/start.ts", ["--verbose"]).stderr).toBe("npm run dev: Unknown option '--verbose' (see `npm run dev -- --help`)\n");
    expect(run("dev/start.ts", [], { PORT: "eighty" }).stderr).toBe('npm run dev: PORT must be a port number (1-65535), not "eighty"\n');
  });
});
