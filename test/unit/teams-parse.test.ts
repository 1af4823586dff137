/**
 * Teams activities → what the core sees, from payloads Microsoft publishes (test/fixtures/platforms/teams/
 * activities.json, with their sources): 1:1 chats, channel posts and reply chains, group chats, the bot's mention,
 * the bot added and removed, what is ignored; the service URLs the bot's token may go to; the answer in Teams'
 * Markdown.
 */
import { describe, expect, it } from "vitest";
import { teamsFileRefs, teamsFiles } from "../../lib/platforms/teams/files.ts";
import { parseTeamsActivity } from "../../lib/platforms/teams/parse.ts";
import { serviceUrlAllowed } from "../../lib/platforms/teams/service-url.ts";
import { teamsMarkdown } from "../../lib/platforms/teams/format.ts";
import type { TeamsSettings } from "../../lib/platforms/teams/settings.ts";
import fixtures from "../fixtures/platforms/teams/activities.json" with { type: "json" };

const NOW = Date.parse("2026-12-01T00:00:00Z");
const parse = (name: keyof typeof fixtures.events) => parseTeamsActivity(fixtures.events[name].body, "Parley", NOW);
const message = (name: keyof typeof fixtures.events) => {
  const parsed = parse(name);
  if (parsed.kind !== "message") throw new Error(`expected a message, got ${parsed.kind}`);
  return parsed;
};

describe("a Teams message activity", () => {
  it("reads a 1:1 message as a DM of the tenant, answered in its chat", () => {
    const parsed = message("personalMessage");
    const chat = fixtures.events.personalMessage.body.conversation.id;
    expect(parsed.botUserId).toBe("28:c9e8c047-2a74-40a2-b28a-b162d5f5327c");
    expect(parsed.message).toMatchObject({
      key: { platform: "teams", tenant: "72f988bf-86f1-41af-91ab-2d7cd011db47", channel: chat },
      id: `${chat}#1485983408511`,
      author: { id: fixtures.events.personalMessage.body.from.id, name: "Megan Bowen", isBot: false },
      text: "Hello Teams TestBot.Sending bold-italic rich text",
      ts: Date.parse("2017-02-01T21:10:07.437Z"),
      addressing: "dm",
      visibility: "dm",
      replyTarget: {
        platform: "teams",
        serviceUrl: "https://smba.trafficmanager.net/amer/",
        conversationId: chat,
        replyToId: "1485983408511",
        personal: true,
      },
    });
    expect(parsed.message.key.thread).toBeUndefined();
  });

  it("reads a reply in a channel's reply chain as a mention in that chain, the mention as the bot's name", () => {
    const parsed = message("channelReplyMention");
    const channel = "19:6848757105754c8981c67612732d9aa7@thread.tacv2";
    expect(parsed.message).toMatchObject({
      key: { platform: "teams", tenant: "50612dbb-0237-4969-b378-8d42590f9c00", channel, thread: "1759881511856" },
      id: `${channel}#1759944781430`,
      replyToId: `${channel}#1759881511856`,
      text: "@Parley reply to thread",
      addressing: "mention",
      mentions: ["28:0b6fe6d1-fece-44f7-9a48-56465e2d5ab8"],
      visibility: "private",
      replyTarget: {
        conversationId: `${channel};messageid=1759881511856`,
        replyToId: "1759944781430",
        personal: false,
      },
    });
  });

  it("reads a post at the top of a channel as the root of its own reply chain", () => {
    const parsed = message("channelNewPostMention");
    expect(parsed.message.key).toMatchObject({
      channel: "19:generalChannelIdgeneralChannelId@thread.skype",
      thread: "teamActivityId",
    });
    expect(parsed.message.replyToId).toBeUndefined();
    expect(parsed.message.text).toBe("@Parley hi");
  });

  it("reads a channel message without the bot's mention (resource-specific consent) as not addressed", () => {
    const parsed = message("channelReplyWithoutMention");
    expect(parsed.message).toMatchObject({ addressing: "none", text: "reply to thread", mentions: [] });
  });

  it("reads a group chat as one unthreaded private place of its tenant", () => {
    const parsed = message("groupChatMention");
    expect(parsed.message).toMatchObject({
      key: { platform: "teams", tenant: "tenantId-Guid", channel: "19:groupChatId@thread.v2" },
      text: "@Parley test",
      addressing: "mention",
      visibility: "private",
    });
    expect(parsed.message.key.thread).toBeUndefined();
  });

  it("writes another person's mention as their name, and reads Teams' entities as characters", () => {
    const body = {
      ...fixtures.events.groupChatMention.body,
      text: "<at>Teams Bot</at> ask <at>Bob Smith</at> &amp; me&nbsp;later",
      entities: [
        ...fixtures.events.groupChatMention.body.entities,
        { type: "mention", mentioned: { id: "29:bob", name: "Bob Smith" }, text: "<at>Bob Smith</at>" },
      ],
    };
    const parsed = parseTeamsActivity(body, "Parley", NOW);
    if (parsed.kind !== "message") throw new Error(parsed.kind);
    expect(parsed.message.text).toBe("@Parley ask @Bob Smith & me later");
    expect(parsed.message.mentions).toEqual(["28:teamsbot-Guid", "29:bob"]);
  });
});

describe("the bot added to or removed from a Teams conversation", () => {
  it("reads the bot removed from a team, or the app uninstalled there, as that channel left, never the tenant", () => {
    expect(parse("botRemovedFromTeam")).toEqual({
      kind: "left",
      place: {
        platform: "teams",
        tenant: "72f988bf-86f1-41af-91ab-2d7cd011db47",
        channel: "19:efa9296d959346209fea44151c742e73@thread.skype",
      },
    });
    expect(parse("appUninstalled")).toEqual({
      kind: "left",
      place: { platform: "teams", tenant: "sample tenant ID", channel: "sample conversation Id@thread.skype" },
    });
  });

  it("acknowledges the bot added and a person removed, and refuses a removal that names no tenant", () => {
    expect(parse("botAddedToTeam")).toEqual({ kind: "ignored", reason: "bot_added" });
    expect(parse("appInstalled")).toEqual({ kind: "ignored", reason: "installed" });
    const removed = fixtures.events.botRemovedFromTeam.body;
    const person = { ...removed, membersRemoved: [{ id: "29:someone-else" }] };
    expect(parseTeamsActivity(person, "Parley", NOW)).toEqual({ kind: "ignored", reason: "conversationupdate" });
    const { channelData: _, ...noTenant } = removed;
    expect(parseTeamsActivity(noTenant, "Parley", NOW)).toMatchObject({ kind: "invalid" });
  });
});

describe("what a Teams delivery is otherwise", () => {
  it("ignores an activity from another channel and the bot's own message", () => {
    const body = fixtures.events.groupChatMention.body;
    expect(parseTeamsActivity({ ...body, channelId: "webchat" }, "Parley", NOW)).toMatchObject({ kind: "ignored" });
    expect(parseTeamsActivity({ ...body, from: body.recipient }, "Parley", NOW)).toEqual({
      kind: "ignored",
      reason: "own_message",
    });
  });

  it("reads a click of a control's Action.Execute as a press on the card's message, any other invoke as nothing", () => {
    const { text: _, ...body } = fixtures.events.groupChatMention.body;
    const action = { type: "Action.Execute", verb: "parley_control", data: { control: "approve" } };
    const invoke = { ...body, type: "invoke", name: "adaptiveCard/action", replyToId: "1700000000000" };
    expect(parseTeamsActivity({ ...invoke, value: { action, trigger: "manual" } }, "Parley", NOW)).toMatchObject({
      kind: "control",
      press: {
        place: { platform: "teams", channel: body.conversation.id },
        person: body.from.id,
        messageRef: "1700000000000",
        controlId: "approve",
      },
    });
    const otherVerb = { action: { ...action, verb: "someone_elses" } };
    expect(parseTeamsActivity({ ...invoke, value: otherVerb }, "Parley", NOW)).toMatchObject({ kind: "ignored" });
    expect(parseTeamsActivity({ ...invoke, name: "task/fetch" }, "Parley", NOW)).toMatchObject({ kind: "ignored" });
  });

  it("calls an activity without a service URL or tenant invalid, in words that carry none of its values", () => {
    const { serviceUrl: _, ...noService } = fixtures.events.groupChatMention.body;
    const invalid = parseTeamsActivity(noService, "Parley", NOW);
    expect(invalid).toMatchObject({ kind: "invalid", issues: expect.stringContaining("serviceUrl") });
    const { channelData: __, conversation, ...rest } = fixtures.events.groupChatMention.body;
    const noTenant = { ...rest, conversation: { ...conversation, tenantId: undefined } };
    expect(parseTeamsActivity(noTenant, "Parley", NOW)).toMatchObject({ kind: "invalid" });
    expect(JSON.stringify(invalid)).not.toContain("Teams Bot");
  });
});

describe("the service URLs the bot's token may go to", () => {
  const config = { TEAMS_EXTRA_SERVICE_URL: "http://127.0.0.1:8099" } as TeamsSettings;
  it("takes Microsoft's Bot Connector hosts over HTTPS and the configured fake, nothing else", () => {
    for (const url of [
      "https://smba.trafficmanager.net/amer/",
      "https://smba.trafficmanager.net/amer/50612dbb-0237-4969-b378-8d42590f9c00/",
      "https://skype.botframework.com",
      "https://eu.teams.microsoft.com/x/",
      "http://127.0.0.1:8099/amer/",
    ])
      expect(serviceUrlAllowed(config, url), url).toBe(true);
    for (const url of [
      "http://smba.trafficmanager.net/amer/",
      "https://smba.trafficmanager.net.evil.example/amer/",
      "https://evilbotframework.com/",
      "https://user:pass@smba.trafficmanager.net/amer/",
      "http://127.0.0.1:8098/amer/",
      "not a url",
    ])
      expect(serviceUrlAllowed(config, url), url).toBe(false);
    expect(serviceUrlAllowed({} as TeamsSettings, "http://127.0.0.1:8099/amer/")).toBe(false);
  });
});

describe("files pasted into a Teams message", () => {
  const image = {
    contentType: "image/png",
    contentUrl: "https://smba.trafficmanager.net/amer/v3/attachments/0-eus-d1-abc/views/original",
    name: "chart.png",
  };
  const download = (downloadUrl: string) => ({
    contentType: "application/vnd.microsoft.teams.file.download.info",
    name: "notes.txt",
    content: { downloadUrl, uniqueId: "1150D938-8870-4044-9F2C-5BBDEBA70C8C", fileType: "txt" },
  });

  it("keeps a picture and a 1:1 file's SharePoint download as references, never the message's HTML copy", () => {
    const refs = teamsFileRefs([
      image,
      download("https://contoso.sharepoint.com/personal/u/_layouts/15/download.aspx?UniqueId=1150"),
      download("https://collector.example.net/notes.txt"),
      { contentType: "text/html", content: "<p>hi</p>" },
    ]);
    expect(refs).toEqual([
      { id: image.contentUrl, url: image.contentUrl, name: "chart.png", type: "image/png" },
      expect.objectContaining({ name: "notes.txt", url: expect.stringContaining(".sharepoint.com/") }),
    ]);
  });

  it("fetches a picture only from a host the bot's token may go to", async () => {
    let fetched = 0;
    const ctx = {
      config: {} as TeamsSettings,
      fetch: (async () => {
        fetched++;
        return new Response("x");
      }) as typeof fetch,
    } as unknown as Parameters<typeof teamsFiles.fetchFile>[0];
    const ref = {
      id: "https://collector.example.net/a.png",
      url: "https://collector.example.net/a.png",
      name: "a",
      type: "",
    };
    expect(await teamsFiles.fetchFile(ctx, ref, 1_000, "start")).toBeNull();
    expect(fetched).toBe(0);
  });
});

describe("an answer in Teams' Markdown", () => {
  it("keeps what Teams shows and rewrites what it does not: a table as a code block, a heading as a bold line", () => {
    const rendered = teamsMarkdown("# Plan\n\n**Roll back** with `git revert`.\n\n| a | b |\n|---|---|\n| 1 | 2 |");
    expect(rendered).toContain("**Plan**");
    expect(rendered).toContain("**Roll back** with `git revert`.");
    expect(rendered).toMatch(/```\n.*a.*b/);
    expect(rendered).not.toContain("|---|");
  });
});
