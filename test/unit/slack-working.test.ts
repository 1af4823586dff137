/**
 * The working sign on Slack (lib/platforms/slack/working.ts) fails quietly, and its log line names the failure by
 * the error's kind and Slack's code only: never the error's message, which can carry a URL with a token in it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSlackFake, type RunningSlackFake } from "../../dev/fakes/slack.ts";
import type { Settings } from "../../lib/config.ts";
import type { LogFields } from "../../lib/log.ts";
import type { ReplyContext } from "../../lib/platforms/adapter.ts";
import type { SlackSettings } from "../../lib/platforms/slack/settings.ts";
import { slackWorking } from "../../lib/platforms/slack/working.ts";

let slack: RunningSlackFake;
beforeAll(async () => void (slack = await startSlackFake({ port: 0 })));
afterAll(() => slack.close());

const TOKEN = "xoxb-test-token";

function context(lines: LogFields[], fetcher: typeof fetch): ReplyContext<SlackSettings> {
  const log = (_event: string, fields?: LogFields) => void lines.push(fields ?? {});
  return {
    settings: {} as Settings,
    config: { SLACK_API_BASE_URL: slack.url, STATUS_REACTION: "eyes", STATUS_TEXT: "is thinking…" } as SlackSettings,
    log: { info: log, warn: log, error: log },
    now: () => Date.now(),
    fetch: fetcher,
    tenant: "T0FAKETEAM",
    token: async () => TOKEN,
    optOuts: undefined as never,
    callBudget: async () => true,
  };
}

describe("the Slack working sign", () => {
  it("logs a failed take-down by the error's kind and Slack's code, never the error's message", async () => {
    const lines: LogFields[] = [];
    let calls = 0;
    // The reaction goes up; taking it down fails with an error whose message names a URL with a token.
    const fetcher: typeof fetch = async (input, init) => {
      calls += 1;
      if (calls > 1) throw new TypeError(`fetch failed: ${String(input)}?token=${TOKEN}`);
      return fetch(input, init);
    };
    const sign = await slackWorking(
      context(lines, fetcher),
      { platform: "slack", channel: "C0WORK001" },
      { triggerId: "C0WORK001:1715000000.000100", authorId: "U0ALICE01" },
    );
    await sign.stop();
    const failed = lines.find((l) => l.what === "reaction")!;
    expect(failed).toMatchObject({ platform: "slack", error: "TypeError", code: null });
    expect(JSON.stringify(lines)).not.toContain("xoxb");
  });
});
