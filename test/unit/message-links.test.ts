/**
 * @module
 * The links a catch-up cites its messages by: Slack's permalink in the shape chat.getPermalink returns
 * (`/archives/<channel>/p<ts without its dot>`, a thread's reply with `thread_ts` and `cid`), Discord's jump link
 * (`/channels/<guild or @me>/<channel>/<message>`).
 */
import { describe, expect, it } from "vitest";
import { discordJumpLink } from "../../lib/platforms/discord/history.ts";
import { slackPermalink } from "../../lib/platforms/slack/history.ts";

describe("message links", () => {
  it("Slack: a channel's message, a thread's parent and a thread's reply", () => {
    const channel = { platform: "slack" as const, tenant: "T1", channel: "C1H9RESGA" };
    expect(slackPermalink(channel, "C1H9RESGA:1358546515.000008")).toBe(
      "https://app.slack.com/archives/C1H9RESGA/p1358546515000008",
    );
    const thread = { ...channel, thread: "1358546515.000008" };
    expect(slackPermalink(thread, "C1H9RESGA:1358546515.000008")).toBe(
      "https://app.slack.com/archives/C1H9RESGA/p1358546515000008",
    );
    expect(slackPermalink(thread, "C1H9RESGA:1358546517.000023")).toBe(
      "https://app.slack.com/archives/C1H9RESGA/p1358546517000023?thread_ts=1358546515.000008&cid=C1H9RESGA",
    );
    expect(slackPermalink(channel, "not-a-slack-id")).toBeUndefined();
  });

  it("Discord: a guild channel's message, and a DM's", () => {
    expect(
      discordJumpLink(
        { platform: "discord", tenant: "81384788765712384", channel: "81384788765712385" },
        "1100000000000000001",
      ),
    ).toBe("https://discord.com/channels/81384788765712384/81384788765712385/1100000000000000001");
    expect(discordJumpLink({ platform: "discord", tenant: "dm:222", channel: "333" }, "444")).toBe(
      "https://discord.com/channels/@me/333/444",
    );
  });
});
