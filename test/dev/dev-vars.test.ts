import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { loadDevVars } from "../../dev/dev-vars.ts";
import { startupTable } from "../../dev/startup-table.ts";
import { WORKER_SETTINGS } from "../../dev/worker-settings.ts";
import { SLACK_FAKE_OAUTH_CLIENT } from "../../dev/fakes/slack.ts";
import { PORT_SETTINGS, stackPorts } from "../../dev/stack-ports.ts";
import { applyStackSettings } from "../../dev/stack-settings.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(devVars: string): string {
  const dir = mkdtempSync(join(tmpdir(), "parley-dev-vars-"));
  dirs.push(dir);
  writeFileSync(join(dir, ".dev.vars"), devVars);
  return dir;
}

describe("the Worker's settings under npm run dev", () => {
  it("take a platform setting from the environment over .dev.vars", () => {
    const { vars } = loadDevVars(project("SLACK_API_BASE_URL=http://127.0.0.1:8091/api\n"), {
      SLACK_API_BASE_URL: "http://127.0.0.1:9000/api",
      TWILIO_ACCOUNT_SID: "AC123",
    });
    expect(vars.get("SLACK_API_BASE_URL")).toBe("http://127.0.0.1:9000/api");
    expect(vars.get("TWILIO_ACCOUNT_SID")).toBe("AC123");
  });

  it("never include the launcher's port settings, from the environment or from .dev.vars", () => {
    const env = Object.fromEntries([...PORT_SETTINGS].map((name) => [name, "18000"]));
    const { vars } = loadDevVars(project("PORT=9999\nQSTASH_PORT=9998\nBOT_NAME=Parley\n"), env);
    expect([...vars.keys()]).toEqual(["BOT_NAME"]);
  });
});

/** The names in the first column of docs/configuration.md's table of every setting. */
function documentedSettings(): string[] {
  const doc = readFileSync("docs/configuration.md", "utf8");
  const table = doc.slice(doc.indexOf("## Every setting"), doc.indexOf("## Rotating"));
  return table
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .flatMap((line) => [...line.split("|")[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!));
}

describe("every documented setting under npm run dev", () => {
  it("is a setting of the Worker's schemas, the platforms' included, and every one of those is documented", () => {
    expect(new Set(documentedSettings())).toEqual(WORKER_SETTINGS);
  });

  it("reaches the local Worker from the environment, whatever .dev.vars says, and is named as taken from there", () => {
    const env = Object.fromEntries([...WORKER_SETTINGS].map((name) => [name, `from-env-${name}`]));
    const { vars, fromEnvironment } = loadDevVars(project("TOOLS=\nBOT_NAME=Parley\n"), { ...env, HOME: "/root" });
    for (const name of WORKER_SETTINGS) expect(vars.get(name), name).toBe(`from-env-${name}`);
    expect(new Set(fromEnvironment)).toEqual(WORKER_SETTINGS);
    expect(vars.has("HOME")).toBe(false);
  });

  it("shows in the start-up table by name, never by value", () => {
    const { fromEnvironment } = loadDevVars(project(""), { TOOLS: "secret-tool-list", BACKFILL_MESSAGES: "0" });
    expect(fromEnvironment).toEqual(["BACKFILL_MESSAGES", "TOOLS"]);
    const table = startupTable({
      ports: stackPorts({}),
      redisUrl: "redis://127.0.0.1:6390",
      gatewayUrl: "ws://127.0.0.1:8096",
      adminToken: "t".repeat(32),
      slackWorkspaces: "Acme, Globex",
      fromEnvironment,
      mode: "readable",
    });
    expect(table).toMatch(/^ {2}From environment {2}BACKFILL_MESSAGES, TOOLS$/m);
    expect(table).not.toContain("secret-tool-list");
  });
});

describe("the Slack workspaces of npm run dev", () => {
  const settled = (devVars: string) => {
    const { vars } = loadDevVars(project(devVars), {});
    applyStackSettings(vars, stackPorts({}), {});
    return vars;
  };

  it("get the Slack fake's OAuth client when a .dev.vars from before installs has none, so both workspaces install", () => {
    const vars = settled("SLACK_BOT_TOKEN=xoxb-local-bot-token\n");
    expect(vars.get("SLACK_CLIENT_ID")).toBe(SLACK_FAKE_OAUTH_CLIENT.clientId);
    expect(vars.get("SLACK_CLIENT_SECRET")).toBe(SLACK_FAKE_OAUTH_CLIENT.clientSecret);
  });

  it("stay one, on SLACK_BOT_TOKEN, with an empty SLACK_CLIENT_ID or a real Slack", () => {
    expect(settled("SLACK_BOT_TOKEN=xoxb-local-bot-token\nSLACK_CLIENT_ID=\n").get("SLACK_CLIENT_ID")).toBe("");
    expect(settled("SLACK_API_BASE_URL=https://slack.com/api\n").has("SLACK_CLIENT_ID")).toBe(false);
  });
});
