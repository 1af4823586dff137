import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseSlackEvent, type SlackParseOptions } from "../../lib/platforms/slack/parse.ts";

type Payload = { event: Record<string, unknown> } & Record<string, unknown>;

function fixture(name: string): Payload {
  return JSON.parse(readFileSync(join(import.meta.dirname, "../fixtures/slack", `${name}.json`), "utf8")) as Payload;
}

/** A fixture with some event fields changed (undefined removes the field). */
function withEvent(name: string, changes: Record<string, unknown>): Payload {
  const payload = fixture(name);
  payload.event = Object.fromEntries(
    Object.entries({ ...payload.event, ...changes }).filter(([, v]) => v !== undefined),
  );
  return payload;
}

const OPTS: SlackParseOptions = { botName: "Parley" };

function parsedMessage(body: unknown, opts: SlackParseOptions = OPTS) {
  const result = parseSlackEvent(body, opts);
  if (result.kind !== "message") throw new Error(`expected a message, got ${JSON.stringify(result)}`);
  return result;
}

function ignoredReason(body: unknown): string {
  const result = parseSlackEvent(body, OPTS);
  if (result.kind !== "ignored") throw new Error(`expected ignored, got ${JSON.stringify(result)}`);
  return result.reason;
}

describe("parseSlackEvent", () => {
  it("answers url_verification with its challenge", () => {
    expect(parseSlackEvent(fixture("url-verification"), OPTS)).toEqual({
      kind: "url_verification",
      challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
    });
  });

  it("turns an app_mention into a mention in the channel, replying in a thread under it", () => {
    const { message, bot } = parsedMessage(fixture("app-mention"));
    expect(bot).toEqual({ userId: "U0BOT0001" });
    expect(message).toEqual({
      key: { platform: "slack", tenant: "T0001ABCD", channel: "C0CHAN001" },
      id: "C0CHAN001:1715000000.000100",
      author: { id: "U0ALICE01", name: "U0ALICE01", isBot: false },
      text: "@Parley what's the deploy checklist again?",
      ts: 1715000000000,
      addressing: "mention",
      mentions: ["U0BOT0001"],
      replyTarget: { platform: "slack", channel: "C0CHAN001", recipientTeam: "T0001ABCD" },
      // An app_mention does not say whether its channel is public: never counted as public.
      visibility: "private",
    });
  });

  it("gives the app_mention and the message twin of one post the same id", () => {
    const mention = parsedMessage(fixture("app-mention")).message;
    const twin = parsedMessage(fixture("message-channel")).message;
    expect(twin.id).toBe(mention.id);
    expect(twin.addressing).toBe("mention");
    expect(twin.key).toEqual(mention.key);
  });

  it("names the author from the profile the event carries", () => {
    expect(parsedMessage(fixture("message-channel")).message.author).toEqual({
      id: "U0ALICE01",
      name: "alice",
      isBot: false,
    });
    const noDisplayName = withEvent("message-channel", {
      user_profile: { real_name: "Alice Martin", display_name: "" },
    });
    expect(parsedMessage(noDisplayName).message.author.name).toBe("Alice Martin");
  });

  it("records a channel message that does not address the bot as addressing none", () => {
    const body = withEvent("message-channel", { text: "lunch anyone? <@U0BOB0002>" });
    const { message } = parsedMessage(body);
    expect(message.addressing).toBe("none");
    expect(message.mentions).toEqual(["U0BOB0002"]);
    expect(message.text).toBe("lunch anyone? @U0BOB0002");
  });

  it("reads a mention written with a label and lists each mentioned user once", () => {
    const body = withEvent("message-channel", { text: "<@U0BOT0001|parley> ask <@U0BOB0002> and <@U0BOB0002>" });
    const { message } = parsedMessage(body);
    expect(message.addressing).toBe("mention");
    expect(message.mentions).toEqual(["U0BOT0001", "U0BOB0002"]);
    expect(message.text).toBe("@Parley ask @U0BOB0002 and @U0BOB0002");
  });

  it("keys a thread reply by channel and thread, and knows the thread was started by the bot", () => {
    const { message } = parsedMessage(fixture("message-thread"));
    expect(message.key).toEqual({
      platform: "slack",
      tenant: "T0001ABCD",
      channel: "C0CHAN001",
      thread: "1715000010.000200",
    });
    expect(message.addressing).toBe("reply_to_bot");
    expect(message.replyToAuthorId).toBe("U0BOT0001");
    // The thread's parent, by the id its own delivery had: the job looks it up in the channel's conversation.
    expect(message.replyToId).toBe("C0CHAN001:1715000010.000200");
    expect(message.replyTarget).toEqual({
      platform: "slack",
      channel: "C0CHAN001",
      threadTs: "1715000010.000200",
      recipientTeam: "T0001ABCD",
    });
    expect(message.text).toBe("and does @U0ALICE01 need to approve the migration?");
  });

  it("does not treat a reply in someone else's thread as addressed to the bot", () => {
    const { message } = parsedMessage(withEvent("message-thread", { parent_user_id: "U0ALICE01" }));
    expect(message.addressing).toBe("none");
    expect(message.replyToAuthorId).toBe("U0ALICE01");
  });

  it("treats a thread's parent message (thread_ts equal to ts) as a channel message", () => {
    const body = withEvent("message-channel", { thread_ts: "1715000000.000100" });
    expect(parsedMessage(body).message.key.thread).toBeUndefined();
    expect(parsedMessage(body).message.replyToId).toBeUndefined();
  });

  it("treats a direct message as a DM and keys it with the enterprise and team", () => {
    const { message } = parsedMessage(fixture("message-im"));
    expect(message.addressing).toBe("dm");
    expect(message.key).toEqual({ platform: "slack", tenant: "E0GRID001:T0001ABCD", channel: "D0DIRECT1" });
  });

  it("says who can read the place: a DM, a private channel or group DM, a public channel", () => {
    const visibility = (channel_type: string | undefined, name = "message-channel") =>
      parsedMessage(withEvent(name, { channel_type })).message.visibility;
    expect(parsedMessage(fixture("message-im")).message.visibility).toBe("dm");
    expect(visibility("channel")).toBe("public");
    expect(visibility("group")).toBe("private");
    expect(visibility("mpim")).toBe("private");
    expect(visibility("something-new")).toBe("private");
  });

  it("keeps thread broadcasts and file shares that carry text", () => {
    expect(parsedMessage(withEvent("message-thread", { subtype: "thread_broadcast" })).message.key.thread).toBe(
      "1715000010.000200",
    );
    expect(
      parsedMessage(withEvent("message-channel", { subtype: "file_share", files: [{ id: "F1" }] })).message.text,
    ).toContain("deploy checklist");
  });

  it("ignores posts that are not a person's new message", () => {
    expect(ignoredReason(fixture("bot-message"))).toBe("subtype:bot_message");
    expect(ignoredReason(fixture("message-changed"))).toBe("subtype:message_changed");
    expect(ignoredReason(withEvent("message-channel", { subtype: "message_deleted" }))).toBe("subtype:message_deleted");
    expect(ignoredReason(withEvent("message-channel", { subtype: "channel_join" }))).toBe("subtype:channel_join");
  });

  it("ignores the bot's own posts, recognised by its user id or by its app's bot id", () => {
    expect(ignoredReason(withEvent("message-channel", { user: "U0BOT0001" }))).toBe("own_message");
    const ownBotPost = withEvent("message-channel", { user: "U0SOMEONE", bot_id: "B0OURBOT1", app_id: "A0APP0001" });
    expect(ignoredReason(ownBotPost)).toBe("own_message");
    const knownBotId = withEvent("message-channel", { user: undefined, bot_id: "B0OURBOT1" });
    const result = parseSlackEvent(knownBotId, { ...OPTS, botId: "B0OURBOT1" });
    expect(result).toEqual({ kind: "ignored", reason: "own_message" });
  });

  it("keeps another app's bot post as a message from a bot", () => {
    const body = withEvent("message-channel", { user: "U0OTHERBT", bot_id: "B0OTHER01", app_id: "A0OTHER01" });
    expect(parsedMessage(body).message.author).toMatchObject({ id: "U0OTHERBT", isBot: true });
  });

  it("ignores a message without text", () => {
    expect(ignoredReason(withEvent("message-channel", { text: undefined }))).toBe("no_text");
    expect(ignoredReason(withEvent("message-channel", { subtype: "file_share", text: "  " }))).toBe("no_text");
  });

  it("ignores events other than mentions and messages, and unknown envelopes", () => {
    const created = fixture("message-channel");
    created.event = { type: "channel_created", channel: { id: "C0NEW" } };
    expect(ignoredReason(created)).toBe("unsupported_event");
    expect(ignoredReason({ type: "app_rate_limited", team_id: "T0001ABCD", minute_rate_limited: 1518467820 })).toBe(
      "envelope:app_rate_limited",
    );
  });

  it("a 👎 on the bot's message is not-you feedback, never answered; other reactions need no work", () => {
    const envelope = (reaction: string, itemUser: string) => {
      const body = fixture("message-channel");
      body.event = {
        type: "reaction_added",
        user: "U0ALICE01",
        reaction,
        item_user: itemUser,
        item: { type: "message", channel: "C0CHAN001", ts: "1715000000.000100" },
        event_ts: "1715000009.000200",
      };
      return body;
    };
    const bot = parsedMessage(fixture("message-channel")).bot.userId;
    for (const thumbsDown of ["-1", "thumbsdown", "-1::skin-tone-3", "thumbsdown::skin-tone-2"]) {
      expect(parsedMessage(envelope(thumbsDown, bot)).message).toMatchObject({
        key: { platform: "slack", channel: "C0CHAN001" },
        author: { id: "U0ALICE01" },
        text: "",
        ts: 1715000009000,
        noReply: true,
        feedback: "not_you",
      });
    }
    expect(ignoredReason(envelope("+1", bot))).toBe("reaction_not_feedback");
    expect(ignoredReason(envelope("-1", "U0BOB0002"))).toBe("reaction_not_on_bot");
    // A ✅ or ❌ on the bot's message answers a question it may have asked there (docs/tools.md).
    for (const tick of ["white_check_mark", "heavy_check_mark", "ballot_box_with_check"]) {
      expect(parseSlackEvent(envelope(tick, bot), OPTS)).toMatchObject({
        kind: "approval",
        answer: {
          place: { platform: "slack", channel: "C0CHAN001" },
          messageId: "1715000000.000100",
          userId: "U0ALICE01",
          verdict: "approve",
        },
      });
    }
    for (const cross of ["x", "negative_squared_cross_mark"])
      expect(parseSlackEvent(envelope(cross, bot), OPTS)).toMatchObject({
        kind: "approval",
        answer: { verdict: "deny" },
      });
    expect(ignoredReason(envelope("white_check_mark", "U0BOB0002"))).toBe("reaction_not_on_bot");
  });

  it("refuses an id that is not Slack's, naming the field and never the value", () => {
    const hostile = [
      "U0ALICE01\u0007",
      'U0ALICE01\n{"event":"forged"}',
      "\u001b[2JU0ALICE01",
      "u0alice01",
      "U0 ALICE01",
      "U0ALICE01|T0",
      "",
      "Ü0ALICE01",
    ];
    for (const id of hostile) {
      const invalid = (body: unknown, field: string) => {
        const result = parseSlackEvent(body, OPTS);
        expect(result, `${field} ${JSON.stringify(id)}`).toEqual({
          kind: "invalid",
          issues: `${field}: not a Slack id`,
        });
      };
      invalid(withEvent("message-channel", { user: id }), "event.user");
      invalid(withEvent("message-channel", { channel: id }), "event.channel");
      invalid(withEvent("message-thread", { parent_user_id: id }), "event.parent_user_id");
      invalid({ ...fixture("message-channel"), team_id: id }, "team_id");
      invalid({ ...fixture("message-im"), enterprise_id: id }, "enterprise_id");
      const authorizations = [{ ...(fixture("message-channel").authorizations as object[])[0], user_id: id }];
      invalid({ ...fixture("message-channel"), authorizations }, "authorizations.0.user_id");
    }
  });

  it("keeps every shape of id Slack sends: org-wide W users, Slackbot, private and DM channels, org and bot ids", () => {
    expect(parsedMessage(withEvent("message-channel", { user: "W012A3CDE" })).message.author.id).toBe("W012A3CDE");
    // Slackbot's notices (it writes into the bot's DM without a bot_id) are a bot's: recorded, never answered.
    expect(parsedMessage(withEvent("message-im", { user: "USLACKBOT" })).message.author).toMatchObject({
      id: "USLACKBOT",
      isBot: true,
    });
    expect(parsedMessage(withEvent("message-channel", { channel: "G0PRIV001" })).message.key.channel).toBe("G0PRIV001");
    expect(parsedMessage(fixture("message-im")).message.key).toMatchObject({
      tenant: "E0GRID001:T0001ABCD",
      channel: "D0DIRECT1",
    });
    const botPost = withEvent("message-channel", { user: undefined, bot_id: "B0CIBOT01", app_id: "A0OTHER01" });
    expect(parsedMessage(botPost).message.author).toMatchObject({ id: "B0CIBOT01", isBot: true });
  });

  it("reports a malformed payload as invalid without echoing its text", () => {
    const badTs = parseSlackEvent(withEvent("message-channel", { ts: "yesterday", text: "secret plans" }), OPTS);
    expect(badTs.kind).toBe("invalid");
    expect(JSON.stringify(badTs)).toContain("event.ts");
    expect(JSON.stringify(badTs)).not.toContain("secret plans");
    const noAuthorizations = fixture("message-channel");
    delete noAuthorizations.authorizations;
    expect(ignoredReason(noAuthorizations)).toBe("no_authorization");
    expect(parseSlackEvent("not an object", OPTS).kind).toBe("invalid");
    expect(parseSlackEvent({ type: "url_verification" }, OPTS).kind).toBe("invalid");
  });

  it("the workspace a stream names is the author's own: another one's in Slack Connect, a workspace on Grid", () => {
    expect(parsedMessage(withEvent("message-channel", { user_team: "T0OTHER01" })).message.replyTarget).toMatchObject({
      recipientTeam: "T0OTHER01",
    });
    expect(parsedMessage(fixture("message-im")).message.replyTarget).toMatchObject({ recipientTeam: "T0001ABCD" });
  });

  it("acknowledges, and never refuses, a signed event Parley does not use, whatever fields it leaves out", () => {
    // message_replied as Slack delivers it: without its subtype (the bug Slack's docs warn of), hidden, no user.
    const replied = withEvent("message-channel", {
      user: undefined,
      text: undefined,
      hidden: true,
      message: {
        type: "message",
        user: "U0ALICE01",
        text: "x",
        ts: "1715000000.000100",
        thread_ts: "1715000000.000100",
        reply_count: 1,
      },
    });
    expect(ignoredReason(replied)).toBe("hidden");
    expect(ignoredReason({ ...replied, event: { ...replied.event, hidden: undefined } })).toBe(
      "subtype:message_replied",
    );
    const assistant = {
      ...fixture("message-im"),
      event: {
        type: "assistant_thread_started",
        assistant_thread: {
          user_id: "U0ALICE01",
          context: { channel_id: "C0CHAN001", team_id: "T0001ABCD", enterprise_id: null },
          channel_id: "D0DIRECT1",
          thread_ts: "1715000200.000100",
        },
        event_ts: "1715000200.000200",
      },
    };
    expect(ignoredReason(assistant)).toBe("unsupported_event");
    // An unused event with an envelope short of what a message needs (no authorization's user, an odd team id).
    const bare = {
      type: "event_callback",
      team_id: "",
      api_app_id: "A1",
      event: { type: "channel_created", channel: {} },
      authorizations: [{ team_id: "T1", is_bot: false }],
    };
    expect(ignoredReason(bare)).toBe("unsupported_event");
    expect(ignoredReason({ ...bare, event: { subtype: "x" } })).toBe("untyped_event");
  });

  it("team_access_revoked removes the org's lost workspaces, in the flat and in the docs' nested shape", () => {
    const flat = {
      type: "event_callback",
      team_id: "T1",
      enterprise_id: "E1",
      api_app_id: "A1",
      event: { type: "team_access_revoked", team_ids: ["T2", "T3"], event_ts: "1.2" },
    };
    expect(parseSlackEvent(flat, OPTS)).toEqual({ kind: "removed", tenants: ["E1:T2", "E1:T3"], accessRevoked: true });
    const nested = {
      type: "event_callback",
      team_id: "T1",
      api_app_id: "A1",
      event: {
        team_id: null,
        enterprise_id: "E1",
        api_app_id: "A1",
        event: { type: "team_access_revoked", team_ids: ["T2"] },
      },
      authorizations: [{ enterprise_id: "E1", team_id: "T1", is_bot: false, is_enterprise_install: false }],
    };
    expect(parseSlackEvent(nested, OPTS)).toEqual({ kind: "removed", tenants: ["E1:T2"], accessRevoked: true });
  });

  it("channel_left and group_left are the bot removed from that channel: the place it left", () => {
    // The shape of Slack's `channel_left` reference (docs.slack.dev/reference/events/channel_left; @slack/types
    // ChannelLeftEvent: type, channel, actor_id, event_ts), in the Events API envelope.
    const left = {
      token: "aaaa",
      team_id: "T043DB835ML",
      api_app_id: "A0442TUPHGR",
      event: { type: "channel_left", channel: "C043KSKGJUB", actor_id: "U043H11ES4V", event_ts: "1664827321.000300" },
      type: "event_callback",
      event_id: "Ev044RKJHB8W",
      event_time: 1664827321,
      authorizations: [
        {
          enterprise_id: null,
          team_id: "T043DB835ML",
          user_id: "U0442US8QGH",
          is_bot: true,
          is_enterprise_install: false,
        },
      ],
      is_ext_shared_channel: false,
    };
    const place = { platform: "slack", tenant: "T043DB835ML", channel: "C043KSKGJUB" };
    expect(parseSlackEvent(left, OPTS)).toEqual({ kind: "left", place });
    expect(parseSlackEvent({ ...left, event: { ...left.event, type: "group_left" } }, OPTS)).toEqual({
      kind: "left",
      place,
    });
    expect(parseSlackEvent({ ...left, event: { type: "channel_left" } }, OPTS)).toMatchObject({ kind: "invalid" });
  });
});
