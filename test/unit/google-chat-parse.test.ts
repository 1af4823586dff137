/**
 * Google Chat deliveries → what the core sees, from the payloads Google publishes (test/fixtures/platforms/
 * google-chat/events.json, with their sources): both framings, mentions, commands, DMs, threads, membership, files;
 * and the answer's text in Chat's own format.
 */
import { describe, expect, it } from "vitest";
import { ConfiguredPlatforms } from "../../lib/platforms/configured.ts";
import { parseGoogleChatEvent } from "../../lib/platforms/google-chat/parse.ts";
import { adapters } from "../../lib/platforms/index.ts";
import { audienceOf } from "../../lib/platforms/google-chat/settings.ts";
import { chatText } from "../../lib/platforms/google-chat/text.ts";
import fixtures from "../fixtures/platforms/google-chat/events.json" with { type: "json" };
import { MINIMAL_SETTINGS } from "../support/settings.ts";

const NOW = Date.parse("2026-12-01T00:00:00Z");
const parse = (name: keyof typeof fixtures.events) => parseGoogleChatEvent(fixtures.events[name].body, "Parley", NOW);
const message = (name: keyof typeof fixtures.events) => {
  const parsed = parse(name);
  if (parsed.kind !== "message") throw new Error(`expected a message, got ${parsed.kind}`);
  return parsed;
};

describe("a Chat API interaction event", () => {
  it("reads a mention in a space as addressed to the bot, its mention the bot's name, in the question's thread", () => {
    const parsed = message("mentionInSpace");
    expect(parsed.botUserId).toBe("users/1234567890987654321");
    expect(parsed.message).toMatchObject({
      key: { platform: "google-chat", tenant: "AAAAAAAAAAA", channel: "AAAAAAAAAAA", thread: "BBBBBBBBBBB" },
      id: "CCCCCCCCCCC",
      author: { id: "users/12345678901234567890", name: "Izumi", isBot: false },
      text: "@Parley Violet is the best",
      addressing: "mention",
      mentions: ["users/1234567890987654321"],
      visibility: "private",
      replyTarget: {
        platform: "google-chat",
        space: "spaces/AAAAAAAAAAA",
        thread: "spaces/AAAAAAAAAAA/threads/BBBBBBBBBBB",
        dm: false,
      },
    });
    expect(parsed.message.ts).toBe(Date.parse("2017-03-02T19:02:59.910Z"));
  });

  it("reads a DM as a DM of its own space, unthreaded, keeping uploaded files and leaving Drive files out", () => {
    const { message: m } = message("directMessage");
    expect(m).toMatchObject({
      key: { tenant: "DDDDDDDDDDD", channel: "DDDDDDDDDDD" },
      addressing: "dm",
      visibility: "dm",
      replyTarget: { space: "spaces/DDDDDDDDDDD", dm: true },
      files: [{ id: "ClxzcGFjZXMvRERERERE", name: "notes.txt", type: "text/plain" }],
    });
    expect(m.key.thread).toBeUndefined();
    expect(m.replyTarget).not.toHaveProperty("thread");
  });

  it("reads /ask as a command asking its question", () => {
    expect(message("slashCommand").message).toMatchObject({ addressing: "command", text: "what changed in 4.13?" });
  });

  it("ignores being added to a space without a message, and cleans up a space the app was removed from", () => {
    expect(parse("addedToRoom")).toEqual({ kind: "ignored", reason: "added_to_space" });
    expect(parse("removedFromRoom")).toEqual({ kind: "removed", tenants: ["AAAAAAAAAAA"] });
  });

  it("answers the message an @mention added the app with (ADDED_TO_SPACE carries it)", () => {
    const { body } = fixtures.events.mentionInSpace;
    const added = parseGoogleChatEvent({ ...body, type: "ADDED_TO_SPACE" }, "Parley", NOW);
    expect(added).toMatchObject({ kind: "message", message: { addressing: "mention" } });
  });
});

describe("a Workspace add-on event object", () => {
  it("reads messagePayload as the same message: the bot's mention its name, another person's kept and named", () => {
    const parsed = message("addOnMessage");
    expect(parsed.message).toMatchObject({
      key: { tenant: "AAAAAAAAAAA", thread: "BBBBBBBBBBB" },
      id: "LLLLLLLLLLL.LLLLLLLLLLL",
      text: "@Parley is the deploy green? cc @Bo",
      addressing: "mention",
      mentions: ["users/1234567890987654321", "users/222"],
    });
  });

  it("reads an app command by its id (2: /forget) as forget me, and the payloads of membership", () => {
    expect(message("addOnAppCommand").message).toMatchObject({ addressing: "dm", text: "forget me" });
    expect(parse("addOnAdded")).toEqual({ kind: "ignored", reason: "added_to_space" });
    expect(parse("addOnRemoved")).toEqual({ kind: "removed", tenants: ["AAAAAAAAAAA"] });
  });

  it("reads a click of a card's button, in either framing, as a press of its control on that message", () => {
    const press = {
      place: { platform: "google-chat", tenant: "AAAAAAAAAAA", channel: "AAAAAAAAAAA", thread: "BBBBBBBBBBB" },
      person: "users/12345678901234567890",
      messageRef: "DDDDDDDDDDD.DDDDDDDDDDD",
      shownText: "*⚠️ Approval needed:* may I run create_ticket?",
    };
    expect(parse("cardClicked")).toEqual({
      kind: "control",
      press: { ...press, controlId: "approve", reply: "interaction" },
    });
    expect(parse("addOnButtonClicked")).toEqual({
      kind: "control",
      press: { ...press, controlId: "cancel", reply: "add-on" },
    });
    const inDialog = { ...structuredClone(fixtures.events.cardClicked.body), isDialogEvent: true };
    expect(parseGoogleChatEvent(inDialog, "Parley", NOW)).toEqual({ kind: "ignored", reason: "dialog_click" });
    const onPersonMessage = structuredClone(fixtures.events.cardClicked.body);
    onPersonMessage.message.sender.type = "HUMAN";
    expect(parseGoogleChatEvent(onPersonMessage, "Parley", NOW)).toMatchObject({ kind: "ignored" });
    const noParameter = structuredClone(fixtures.events.cardClicked.body) as Record<string, unknown>;
    delete noParameter.action;
    delete noParameter.common;
    expect(parseGoogleChatEvent(noParameter, "Parley", NOW)).toMatchObject({ press: { controlId: "" } });
  });

  it("refuses a click without its message, and what is neither framing", () => {
    expect(parseGoogleChatEvent({ chat: { buttonClickedPayload: {} } }, "Parley", NOW)).toMatchObject({
      kind: "invalid",
    });
    expect(parseGoogleChatEvent({ hello: "world" }, "Parley", NOW)).toMatchObject({ kind: "invalid" });
    const forged = structuredClone(fixtures.events.mentionInSpace.body);
    forged.message.name = "spaces/AAA|x/messages/1";
    expect(parseGoogleChatEvent(forged, "Parley", NOW)).toMatchObject({ kind: "invalid" });
  });
});

describe("the settings", () => {
  it("take the audience as a project number by its digits, else as the endpoint URL", () => {
    expect(audienceOf("123456789012")).toEqual({ mode: "project", number: "123456789012" });
    expect(audienceOf("https://bot.example.com/google-chat/events")).toMatchObject({ mode: "endpoint" });
    expect(audienceOf("my-project-id")).toBeNull();
  });

  it("turn Google Chat on with the audience and the JSON key, and off, naming the setting, when one is malformed", () => {
    const key = JSON.stringify({
      type: "service_account",
      client_email: "bot@p.iam.gserviceaccount.com",
      private_key: "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n",
    });
    const on = { ...MINIMAL_SETTINGS, GOOGLE_CHAT_AUDIENCE: "123456789012", GOOGLE_CHAT_SERVICE_ACCOUNT: key };
    expect(new ConfiguredPlatforms(adapters, on).isOn("google-chat")).toBe(true);
    expect(new ConfiguredPlatforms(adapters, { ...on, GOOGLE_CHAT_SERVICE_ACCOUNT: "" }).isOn("google-chat")).toBe(
      false,
    );
    for (const [name, value] of [
      ["GOOGLE_CHAT_AUDIENCE", "my-project-id"],
      ["GOOGLE_CHAT_SERVICE_ACCOUNT", '{"type":"authorized_user","secret-value":1}'],
      ["GOOGLE_OAUTH_TOKEN_URL", "not a url"],
    ] as const) {
      const state = new ConfiguredPlatforms(adapters, { ...on, [name]: value }).state("google-chat");
      expect(state).toMatchObject({ status: "misconfigured", problems: [{ name }] });
      expect(JSON.stringify(state)).not.toContain(value);
    }
  });
});

describe("the answer in Chat's text format", () => {
  it("turns Markdown's bold, italic, strikethrough and headings into Chat's, leaving code as it is", () => {
    expect(chatText("# Plan\n**bold** and *italic* and ~~gone~~ and `**code**`")).toBe(
      "*Plan*\n*bold* and _italic_ and ~gone~ and `**code**`",
    );
    expect(chatText("```\n**not bold**\n```")).toBe("```\n**not bold**\n```");
  });

  it("shows where a link goes, and makes the model's own Chat markup inert (no one is notified)", () => {
    expect(chatText("see [the docs](https://example.com/docs)")).toBe("see the docs (https://example.com/docs)");
    const inert = chatText("hey <users/all> look <https://evil.example|your bank>");
    expect(inert).not.toContain("<users/");
    expect(inert).not.toContain("<https:");
    expect(inert.length).toBe("hey <users/all> look <https://evil.example|your bank>".length);
  });

  it("never makes a text longer (a part cut to the limit stays within it)", () => {
    for (const text of ["# H", "[a](https://b.c)", "**x** __y__ ~~z~~ *w*", "* item\n- item"])
      expect(chatText(text).length).toBeLessThanOrEqual(text.length);
  });
});
