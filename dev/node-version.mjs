// Stops a Parley command on a Node.js too old for it, in one line, before anything of the command loads: the
// scripts run TypeScript directly, which Node.js does from 22.18 on (an older one fails on the first .ts file with
// ERR_UNKNOWN_FILE_EXTENSION and a stack trace). Plain JavaScript on purpose: it must run on any Node.js.
// The version needed is package.json's `engines.node`; .nvmrc names the same (test/unit/node-version.test.ts).
import { readFileSync } from "node:fs";

const { engines } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const needed = String(engines.node).replace(/^>=\s*/, "");
const [major, minor] = process.versions.node.split(".").map(Number);
const [neededMajor, neededMinor = 0] = needed.split(".").map(Number);
if (major < neededMajor || (major === neededMajor && minor < neededMinor)) {
  console.error(
    `Parley needs Node.js ${needed} or newer; this is ${process.versions.node}: install a newer one ` +
      "(https://nodejs.org, or `nvm install`, which reads .nvmrc), then run `npm ci` again.",
  );
  process.exit(1);
}
