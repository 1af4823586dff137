/**
 * @module
 * Parley's commands on a Node.js too old to run them (the machine's own is often 20): `npm run dev` and `npm test`
 * say in one line which Node.js they need and which this is, before anything of theirs loads, with no stack trace;
 * `.nvmrc` names the version package.json's `engines` asks for, and `npm ci` refuses an older one (.npmrc). Run
 * with the older Node.js at /usr/bin/node when the machine has one; skipped, saying so, otherwise.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const OLD_NODE = "/usr/bin/node";
const engines = (JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string } }).engines.node;
const needed = engines.replace(/^>=\s*/, "");
const oldVersion = existsSync(OLD_NODE)
  ? spawnSync(OLD_NODE, ["--version"], { encoding: "utf8" }).stdout.trim().replace(/^v/, "")
  : "";
const isOlder = (version: string) => {
  const [a = 0, b = 0] = version.split(".").map(Number);
  const [c = 0, d = 0] = needed.split(".").map(Number);
  return a < c || (a === c && b < d);
};
const hasOldNode = oldVersion !== "" && isOlder(oldVersion);

describe("the Node.js Parley needs", () => {
  it(".nvmrc names the version of package.json's engines, and npm ci refuses an older one", () => {
    expect(engines).toMatch(/^>=\d+\.\d+$/);
    expect(readFileSync(".nvmrc", "utf8").trim()).toBe(needed);
    expect(readFileSync(".npmrc", "utf8")).toMatch(/^engine-strict=true$/m);
  });

  it.skipIf(!hasOldNode).each(["dev", "test"])(
    `npm run %s on Node.js ${oldVersion || "(none older at /usr/bin/node)"} says so in one line, before anything runs`,
    (script) => {
      const npm = spawnSync("npm", ["run", "--silent", script], {
        encoding: "utf8",
        env: { ...process.env, PATH: `/usr/bin:/bin` },
        timeout: 60_000,
      });
      expect(npm.status).not.toBe(0);
      const lines = npm.stderr.split("\n").filter((line) => line.trim() && !line.startsWith("npm "));
      expect(lines).toEqual([
        `Parley needs Node.js ${needed} or newer; this is ${oldVersion}: install a newer one (https://nodejs.org, or ` +
          "`nvm install`, which reads .nvmrc), then run `npm ci` again.",
      ]);
      expect(npm.stdout + npm.stderr).not.toMatch(/ERR_UNKNOWN_FILE_EXTENSION|\n\s+at /);
    },
  );
});
