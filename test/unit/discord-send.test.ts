import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startDiscordFake, type PostedChannelMessage, type RunningDiscordFake } from "../../dev/fakes/discord.ts";
import { GiveUp, RetryLater } from "../../lib/errors.ts";
import type { Logger } from "../../lib/log.ts";
import { discordRequest } from "../../lib/platforms/discord/rest.ts";
import { DISCORD_MAX_MESSAGE_CHARS } from "../../lib/platforms/discord/format.ts";
import { partNonce, sendDiscordReply } from "../../lib/platforms/discord/send.ts";
import { RATE_LIMIT_WAIT_IN_JOB_MAX_SECONDS } from "../../lib/platforms/rate-limited.ts";
import type { ChannelTarget, InteractionTarget } from "../../lib/platforms/discord/target.ts";
import { reportInteractionAnswer } from "../../dev/fakes/discord/interaction-answers.ts";
import { APPLICATION_ID, discordCalls, failDiscordCalls } from "../support/discord.ts";
import { partProgress } from "../support/parts.ts";

let discord: RunningDiscordFake;
const echoed: PostedChannelMessage[] = [];
const warnings: string[] = [];
const log: Logger = { info: () => {}, warn: (event) => void warnings.push(event), error: () => {} };
const NOW = 1_750_000_000_000;
let tokenSeq = 0;

beforeAll(async () => {
  discord = await startDiscordFake({ port: 0, onChannelMessage: (m) => void echoed.push(m) });
});
afterAll(async () => {
  await discord.close();
});
beforeEach(async () => {
  await fetch(discord.url.replace(/\/api\/v10$/, "/__reset"), { method: "POST" });
  warnings.length = 0;
});

const config = (now = NOW) => ({ apiBaseUrl: discord.url, botToken: async () => "bot-token", now: () => now, log });
/**
 * An interaction whose token Discord issued 14 minutes before NOW; deferred (as Discord learnt) unless `answered` is
 * false.
 */
async function interaction(answered = true): Promise<InteractionTarget> {
  const token = `token-${++tokenSeq}`;
  if (answered) {
    const sent = JSON.stringify({
      id: String(900000000000000000n + BigInt(tokenSeq)),
      application_id: APPLICATION_ID,
      token,
    });
    await reportInteractionAnswer(discord.url, sent, { status: 200, text: '{"type":5}' }, 40);
  }
  return { platform: "discord", kind: "interaction", applicationId: APPLICATION_ID, token, expiresAt: NOW + 60_000 };
}
const paragraphs = (n: number, size: number) =>
  Array.from({ length: n }, (_, i) => `P${i} ${"word ".repeat(size / 5)}`.trim()).join("\n\n");

describe("answering an interaction", () => {
  it("edits the deferred message with a short answer, allowing no mentions", async () => {
    const target = await interaction();
    const ids = await sendDiscordReply(config(), target, "Hello @everyone <@123>", partProgress());
    const calls = await discordCalls(discord.url, { token: target.token });
    expect(calls).toEqual([
      expect.objectContaining({
        route: "edit_original",
        content: "Hello @everyone <@123>",
        allowed_mentions: { parse: [] },
      }),
    ]);
    expect(ids).toEqual([calls[0]!.id]);
  });

  it("sends a 4,500-character answer as the edit plus two follow-ups, each within 2,000 characters", async () => {
    const target = await interaction();
    const text = paragraphs(3, 1_495);
    expect(text.length).toBeGreaterThanOrEqual(4_490);
    const ids = await sendDiscordReply(config(), target, text, partProgress());
    const calls = await discordCalls(discord.url, { token: target.token });
    expect(calls.map((c) => c.route)).toEqual(["edit_original", "followup", "followup"]);
    expect(ids).toHaveLength(3);
    for (const c of calls) {
      expect((c.content as string).length).toBeLessThanOrEqual(DISCORD_MAX_MESSAGE_CHARS);
      expect(c.allowed_mentions).toEqual({ parse: [] });
    }
    expect(calls.map((c) => c.content).join("\n\n")).toBe(text);
  });

  it("waits out a JSON 429 with a short retry_after and edits once", async () => {
    const target = await interaction();
    await failDiscordCalls(discord.url, { token: target.token, status: 429, retryAfter: 0.25, times: 2 });
    expect(await sendDiscordReply(config(), target, "hi", partProgress())).toHaveLength(1);
    expect(await discordCalls(discord.url, { token: target.token })).toHaveLength(1);
  });

  it("turns a JSON 429 with a longer retry_after into RetryLater with Discord's retry_after", async () => {
    const target = await interaction();
    const retryAfter = RATE_LIMIT_WAIT_IN_JOB_MAX_SECONDS + 2.5;
    await failDiscordCalls(discord.url, { token: target.token, status: 429, retryAfter });
    const err = await sendDiscordReply(config(), target, "hi", partProgress()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryLater);
    expect((err as RetryLater).retryAfterSeconds).toBe(retryAfter);
    expect(await discordCalls(discord.url, { token: target.token })).toEqual([]);
  });

  it("turns a non-JSON 429 (Cloudflare in front of Discord) into RetryLater, from Retry-After or a default", async () => {
    const target = await interaction();
    const edit = () =>
      discordRequest({
        apiBaseUrl: discord.url,
        method: "PATCH",
        path: `/webhooks/${APPLICATION_ID}/${target.token}/messages/@original`,
        what: "edit",
        body: { content: "hi" },
      });
    await failDiscordCalls(discord.url, { token: target.token, status: 429, error: "cloudflare", retryAfter: 7 });
    const withHeader = await edit().catch((e: unknown) => e);
    expect(withHeader).toBeInstanceOf(RetryLater);
    expect((withHeader as RetryLater).retryAfterSeconds).toBe(7);
    await failDiscordCalls(discord.url, { token: target.token, status: 429, error: "cloudflare" });
    const bare = await edit().catch((e: unknown) => e);
    expect(bare).toBeInstanceOf(RetryLater);
    expect((bare as RetryLater).retryAfterSeconds).toBeGreaterThan(0);
  });

  it("gives up quietly, without calling Discord, once the 15-minute token has expired", async () => {
    const target = await interaction();
    const err = await sendDiscordReply(config(target.expiresAt + 1), target, "too late", partProgress()).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(GiveUp);
    expect((err as GiveUp).code).toBe("interaction_expired");
    expect(warnings).toEqual(["discord_interaction_expired"]);
    expect(await discordCalls(discord.url, { token: target.token })).toEqual([]);
  });

  it("gives up when Discord says the webhook token is invalid (its 15 minutes are over on Discord's clock)", async () => {
    const target = await interaction();
    await fetch(`${discord.url.replace(/\/api\/v10$/, "")}/__interactions/age`, {
      method: "POST",
      body: JSON.stringify({ token: target.token, ms: 15 * 60_000 }),
    });
    const err = await sendDiscordReply(config(), target, "hi", partProgress()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GiveUp);
    expect((err as GiveUp).code).toBe("interaction_expired");
  });

  it("tries again soon when Discord does not know the webhook in the interaction's first seconds, and gives up after", async () => {
    const target = await interaction(false);
    const sentAt = target.expiresAt - 15 * 60_000;
    const early = await sendDiscordReply(config(sentAt + 1_000), target, "hi", partProgress()).catch((e: unknown) => e);
    expect(early).toBeInstanceOf(RetryLater);
    const late = await sendDiscordReply(config(sentAt + 60_000), target, "hi", partProgress()).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(GiveUp);
  });

  it("lets a 5xx be retried (a plain error, not GiveUp)", async () => {
    const target = await interaction();
    await failDiscordCalls(discord.url, { token: target.token, status: 502 });
    const err = await sendDiscordReply(config(), target, "hi", partProgress()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(GiveUp);
    expect(String(err)).not.toContain(target.token);
  });
});

describe("posting to a channel", () => {
  const channel = (replyToMessageId?: string): ChannelTarget => ({
    platform: "discord",
    kind: "channel",
    channelId: "600000000000000001",
    ...(replyToMessageId ? { replyToMessageId } : {}),
  });

  it("replies to the trigger with the first part only, allowing no mentions", async () => {
    const text = paragraphs(2, 1_500);
    const ids = await sendDiscordReply(config(), channel("700000000000000001"), text, partProgress());
    const calls = await discordCalls(discord.url, { channelId: "600000000000000001" });
    expect(ids).toHaveLength(2);
    expect(calls[0]!.message_reference).toMatchObject({ message_id: "700000000000000001" });
    expect(calls[1]!.message_reference).toBeUndefined();
    expect(calls.every((c) => JSON.stringify(c.allowed_mentions) === '{"parse":[]}')).toBe(true);
  });

  it("gives each part a nonce of at most 25 characters made of the answer's id and the part's index", async () => {
    const progress = partProgress({ answerId: "800000000000000001" });
    await sendDiscordReply(config(), channel(), paragraphs(2, 1_500), progress);
    const calls = await discordCalls(discord.url, { channelId: "600000000000000001" });
    expect(calls.map((c) => c.nonce)).toEqual([
      await partNonce("800000000000000001", 0),
      await partNonce("800000000000000001", 1),
    ]);
    expect(calls.every((c) => String(c.nonce).length <= 25)).toBe(true);
  });

  it("does not post a part twice when a retry of the same answer posts it again, and leaves the retry's text in it", async () => {
    const first = partProgress();
    // An attempt that died mid-stream left a snapshot of its answer in the part's message.
    const ids = await sendDiscordReply(config(), channel(), "the first attempt's ans", first);
    const retry = partProgress({ answerId: first.answerId, unsure: { since: NOW } });
    expect(await sendDiscordReply(config(), channel(), "a retry that wrote another answer", retry)).toEqual(ids);
    const calls = await discordCalls(discord.url, { channelId: "600000000000000001" });
    expect(calls.filter((c) => c.route === "channel_message")).toHaveLength(1);
    expect(calls.filter((c) => c.route === "edit_message").map((c) => c.content)).toEqual([
      "a retry that wrote another answer",
    ]);
  });

  it("posts two answers with the same text in one channel, one for each trigger", async () => {
    await sendDiscordReply(config(), channel(), "Sure.", partProgress({ answerId: "800000000000000002" }));
    await sendDiscordReply(config(), channel(), "Sure.", partProgress({ answerId: "800000000000000003" }));
    expect((await discordCalls(discord.url, { channelId: "600000000000000001" })).map((c) => c.content)).toEqual([
      "Sure.",
      "Sure.",
    ]);
  });

  it("asks for the bot token only for channel messages", async () => {
    const noToken = () => Promise.reject(new GiveUp("DISCORD_BOT_TOKEN is not set", "not_configured"));
    await expect(
      sendDiscordReply({ ...config(), botToken: noToken }, await interaction(), "hi", partProgress()),
    ).resolves.toHaveLength(1);
    await expect(
      sendDiscordReply({ ...config(), botToken: noToken }, channel(), "hi", partProgress()),
    ).rejects.toBeInstanceOf(GiveUp);
  });

  it("gives up when the channel is gone", async () => {
    await failDiscordCalls(discord.url, { route: "channel_message", status: 404, error: "10003" });
    const err = await sendDiscordReply(config(), channel(), "hi", partProgress()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GiveUp);
    expect((err as GiveUp).code).toBe("discord_10003");
  });
});
