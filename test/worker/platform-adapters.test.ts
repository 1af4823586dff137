import { beforeAll, describe, expect, it } from "vitest";
import { generateDiscordKeys, type DiscordSigningKeys } from "../../dev/signers/discord.ts";
import { GiveUp } from "../../lib/errors.ts";
import type { PlatformAdapter, WebhookRequest } from "../../lib/platforms/adapter.ts";
import { adapterContext, replyContext } from "../../lib/platforms/context.ts";
import { adapters } from "../../lib/platforms/index.ts";
import { jobSchemaFor } from "../../lib/queue/job.ts";
import { createRuntime, type Runtime } from "../../lib/runtime.ts";
import { askInteraction, pingInteraction, signedInteractionRequest } from "../support/discord.ts";
import { BOT_USER_ID, signedSlackRequest, slackMessageEvent } from "../support/slack.ts";
import { BOT as TELEGRAM_BOT, TELEGRAM_SECRET, telegramRequest } from "../support/telegram.ts";
import * as googleChat from "../support/google-chat.ts";
import * as teams from "../support/teams.ts";
import { newSender, signedSmsRequest, smsParams, twilioSuiteEnv } from "../support/twilio.ts";

const SUITE = "adapters";
const jobSchema = jobSchemaFor(adapters);
let discordKeys: DiscordSigningKeys;
let rt: Runtime;
const env = () =>
  twilioSuiteEnv(SUITE, {
    ...teams.teamsSuiteEnv(SUITE),
    DISCORD_PUBLIC_KEY: discordKeys.publicKeyHex,
    TELEGRAM_BOT_TOKEN: TELEGRAM_BOT.token,
    TELEGRAM_WEBHOOK_SECRET: TELEGRAM_SECRET,
    TELEGRAM_BOT_USERNAME: TELEGRAM_BOT.username,
    GOOGLE_CHAT_AUDIENCE: googleChat.PROJECT_NUMBER,
  });
/** A person's message mentioning the bot in a group, as Telegram sends it (the secret token in its header). */
const telegramMention = (text = `@${TELEGRAM_BOT.username} hi`) => ({
  update_id: 1,
  message: {
    message_id: 77,
    from: { id: 42, is_bot: false, first_name: "Alice" },
    chat: { id: -1007, type: "supergroup", title: "Team" },
    date: Math.floor(Date.now() / 1000),
    text,
    entities: [{ type: "mention", offset: 0, length: TELEGRAM_BOT.username.length + 1 }],
  },
});

beforeAll(async () => {
  discordKeys = await generateDiscordKeys();
  rt = createRuntime(env());
});

async function asWebhook(request: Request | Promise<Request>): Promise<WebhookRequest> {
  const r = await request;
  return { headers: r.headers, rawBody: await r.text(), url: r.url };
}

/** A delivery each platform would send that asks the bot something, signed as the platform signs it. */
const deliveries: Record<string, () => Promise<WebhookRequest>> = {
  slack: () =>
    asWebhook(
      signedSlackRequest(
        slackMessageEvent({ team: "TADAPT", channel: "CADAPT", user: "UALICE", text: `<@${BOT_USER_ID}> hi` }).body,
      ),
    ),
  discord: () =>
    asWebhook(
      signedInteractionRequest(
        discordKeys,
        JSON.stringify(askInteraction({ guildId: "71", channelId: "72" }, { id: "73", name: "Alice" }, "hi")),
      ),
    ),
  twilio: () => asWebhook(signedSmsRequest(env(), smsParams({ from: newSender(), body: "hi" }))),
  telegram: () => asWebhook(telegramRequest(telegramMention())),
  "google-chat": async () => {
    const space = await googleChat.newSpace("SPACE");
    const { delivery } = await googleChat.say(space, googleChat.newPerson("Alice"), "hi", { mention: true });
    return asWebhook(googleChat.chatRequest(delivery!));
  },
  teams: async () => {
    const channel = await teams.newConversation("channel");
    const { delivery } = await teams.say(channel, teams.newPerson("Alice"), "hi", { mention: true });
    return asWebhook(teams.teamsRequest(delivery!));
  },
};

/** A job as the inbound flow would publish it, around `replyTarget`. */
function job(platform: string, replyTarget: unknown) {
  return {
    key: { platform, tenant: "T1", channel: "C1" },
    conversationId: "c1",
    trigger: { id: "m1", ts: 1, authorId: "U1", authorName: "Alice" },
    required: true,
    reason: "direct_mention",
    bot: { userId: "B1", name: "Parley", aliases: [] },
    replyTarget,
  };
}

/**
 * What a forger would change: the body, for a platform that signs it; Telegram signs nothing (a secret token in a
 * header proves the sender; TLS keeps the body intact), so there it is the secret; Google Chat's bearer token
 * covers no body either, so there it is the token's signature (and so for the Bot Connector's).
 */
const forgedToken = (d: WebhookRequest) => ({
  ...d,
  headers: new Headers({ ...Object.fromEntries(d.headers), authorization: `${d.headers.get("authorization")}x` }),
});
const tamperings: Record<string, (delivery: WebhookRequest) => WebhookRequest> = {
  "google-chat": forgedToken,
  teams: forgedToken,
  telegram: (d) => ({
    ...d,
    headers: new Headers({
      ...Object.fromEntries(d.headers),
      "X-Telegram-Bot-Api-Secret-Token": `${TELEGRAM_SECRET}x`,
    }),
  }),
};
const tamper = (platform: string, d: WebhookRequest) =>
  (tamperings[platform] ?? ((x: WebhookRequest) => ({ ...x, rawBody: `${x.rawBody} ` })))(d);

describe.each(adapters.map((adapter) => [adapter.platform, adapter] as const))(
  "the %s adapter",
  (platform, adapter: PlatformAdapter) => {
    it("accepts a delivery signed as the platform signs it, and refuses it once what the signature covers changes", async () => {
      const ctx = adapterContext(rt, adapter);
      const delivery = await deliveries[platform]!();
      expect(await adapter.verify(ctx, delivery)).toEqual({ ok: true });
      const tampered = await adapter.verify(ctx, tamper(platform, delivery));
      expect(tampered).toMatchObject({ ok: false, reason: expect.any(String) });
    });

    it("parses it into a message whose reply target its own schema and the job schema accept", async () => {
      const parsed = adapter.parse(adapterContext(rt, adapter), await deliveries[platform]!());
      if (parsed.kind !== "message") throw new Error(`expected a message, got ${parsed.kind}`);
      expect(parsed.message.key.platform).toBe(platform);
      expect(parsed.message.replyTarget.platform).toBe(platform);
      expect(parsed.botUserId).not.toBe("");
      expect(adapter.replyTargetSchema.safeParse(parsed.message.replyTarget).success).toBe(true);
      expect(jobSchema.safeParse(job(platform, parsed.message.replyTarget)).success).toBe(true);
    });

    it("calls a body that is not the platform's invalid, in words that carry none of its values", () => {
      const parsed = adapter.parse(adapterContext(rt, adapter), {
        headers: new Headers(),
        rawBody: "secret-value=%%%{",
        url: "https://worker.test/x",
      });
      expect(parsed).toMatchObject({ kind: "invalid", issues: expect.any(String) });
      expect(JSON.stringify(parsed)).not.toContain("secret-value");
    });

    it("gives up naming its token setting when the token is not set", async () => {
      const bare = createRuntime({ ...env(), [adapter.settings.tokenSetting]: "" });
      const error = await replyContext(bare, adapter, "T1")
        .token()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GiveUp);
      expect((error as GiveUp).code).toBe("not_configured");
      expect((error as GiveUp).message).toContain(adapter.settings.tokenSetting);
    });
  },
);

describe("the job schema built from the adapters", () => {
  it("refuses a target with a missing or mistyped field, another platform's target, and an unknown platform", () => {
    expect(jobSchema.safeParse(job("slack", { platform: "slack", channel: "C1" })).success).toBe(true);
    expect(jobSchema.safeParse(job("slack", { platform: "slack" })).success).toBe(false);
    expect(
      jobSchema.safeParse(job("twilio", { platform: "twilio", accountSid: "AC1", to: 15551234567, from: "+1" }))
        .success,
    ).toBe(false);
    expect(jobSchema.safeParse(job("discord", { platform: "discord", kind: "channel" })).success).toBe(false);
    expect(jobSchema.safeParse(job("discord", { platform: "slack", channel: "C1" })).success).toBe(false);
    expect(jobSchema.safeParse(job("telegram", { platform: "telegram", chatId: "1", chatType: "group" })).success).toBe(
      false,
    );
    expect(jobSchema.safeParse(job("matrix", { platform: "matrix", room: "!r" })).success).toBe(false);
  });
});

describe("protocol checks", () => {
  it("answers Slack's url_verification and Discord's PING with the platform's own answer", async () => {
    const slack = adapters.find((a) => a.platform === "slack")!;
    const discord = adapters.find((a) => a.platform === "discord")!;
    const challenge = slack.parse(
      adapterContext(rt, slack),
      await asWebhook(signedSlackRequest(JSON.stringify({ type: "url_verification", challenge: "c-1" }))),
    );
    const ping = discord.parse(
      adapterContext(rt, discord),
      await asWebhook(signedInteractionRequest(discordKeys, JSON.stringify(pingInteraction()))),
    );
    if (challenge.kind !== "protocol" || ping.kind !== "protocol") throw new Error("expected protocol answers");
    expect(await challenge.response.json()).toEqual({ challenge: "c-1" });
    expect(await ping.response.json()).toEqual({ type: 1 });
  });
});
