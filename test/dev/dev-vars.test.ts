import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadDevVars } from "../../dev/dev-vars.ts";
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
