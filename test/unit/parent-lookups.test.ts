import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDiscordFake, type RunningDiscordFake } from "../../dev/fakes/discord.ts";
import { startSlackFake, type RunningSlackFake } from "../../dev/fakes/slack.ts";
import type { ReplyContext } from "../../lib/platforms/adapter.ts";
import type { DiscordSettings } from "../../lib/platforms/discord/settings.ts";
import { fetchDiscordParent } from "../../lib/platforms/discord/parent.ts";
import { fetchSlackParent } from "../../lib/platforms/slack/parent.ts";

let slack: RunningSlackFake;
let discord: RunningDiscordFake;
beforeAll(async () => {
  [slack, discord] = await Promise.all([startSlackFake({ port: 0 }), startDiscordFake({ port: 0 })]);
});
afterAll(async () => {
  await Promise.all([slack.close(), discord.close()]);
});

async function control(url: string, body: unknown): Promise<Record<string, string>> {
  const res = await fetch(url, { method: "POST", body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, string>;
}

describe("a Slack thread's parent", () => {
  const bot = { userId: "U0FAKEBOT", name: "Parley", aliases: [] };
  const args = () => ({ apiBaseUrl: slack.url, botToken: "xoxb-test-token" });
  const lookups = async (channel: string) =>
    (
      (await (
        await fetch(`${slack.url.replace(/\/api$/, "/__api")}?method=conversations.replies&channel=${channel}`)
      ).json()) as unknown[]
    ).length;

  it("is read with conversations.replies, its mentions made readable", async () => {
    const { ts } = await control(slack.url.replace(/\/api$/, "/__messages"), {
      channel: "C0PARENT1",
      user: "U0ALICE",
      text: "<@U0FAKEBOT> the deploy failed",
    });
    const parent = await fetchSlackParent(args(), {
      place: { platform: "slack", tenant: "T1", channel: "C0PARENT1", thread: ts! },
      replyToId: `C0PARENT1:${ts}`,
      bot,
    });
    expect(parent).toMatchObject({
      id: `C0PARENT1:${ts}`,
      author: { id: "U0ALICE", isBot: false },
      text: "@Parley the deploy failed",
    });
  });

  it("is never read from another channel than the conversation's, and a deleted one is none", async () => {
    const { ts } = await control(slack.url.replace(/\/api$/, "/__messages"), {
      channel: "C0ELSEWHERE",
      user: "U0ALICE",
      text: "private words",
    });
    const place = { platform: "slack" as const, tenant: "T1", channel: "C0PARENT2", thread: ts! };
    expect(await fetchSlackParent(args(), { place, replyToId: `C0ELSEWHERE:${ts}`, bot })).toBeNull();
    expect(await lookups("C0ELSEWHERE")).toBe(0);
    expect(await fetchSlackParent(args(), { place, replyToId: "C0PARENT2:1700000000.000100", bot })).toBeNull();
  });
});

describe("a Discord conversation's parent", () => {
  const bot = { userId: "100000000000000001", name: "Parley", aliases: [] };
  const ctx = () =>
    ({
      config: { DISCORD_API_BASE_URL: discord.url },
      token: async () => "test-discord-bot-token",
      fetch,
    }) as unknown as ReplyContext<DiscordSettings>;
  const fake = (path: string) => discord.url.replace(/\/api\/v10$/, path);
  const person = { id: "230000000000000001", username: "alice", global_name: "Alice" };
  const place = (channel: string, tenant = "320000000000000001") => ({ platform: "discord" as const, tenant, channel });

  it("is a thread's starter message, in the parent channel, or in the thread itself for a forum post", async () => {
    const starter = await control(fake("/__messages"), {
      channel_id: "410000000000000001",
      content: "the backup failed",
      author: person,
    });
    await control(fake("/__channel"), { id: starter.id, type: 11, parent_id: "410000000000000001" });
    expect(await fetchDiscordParent(ctx(), { place: place(starter.id!), bot })).toMatchObject({
      id: starter.id,
      author: { name: "Alice" },
      text: "the backup failed",
    });

    const post = await control(fake("/__messages"), {
      id: "410000000000000099",
      channel_id: "410000000000000099",
      content: "forum post",
      author: person,
    });
    await control(fake("/__channel"), { id: post.id, type: 11, parent_id: "410000000000000002" });
    expect(await fetchDiscordParent(ctx(), { place: place(post.id!), bot })).toMatchObject({ text: "forum post" });
  });

  it("is the replied message in the reply's own channel; a channel that is no thread, or a DM, has none", async () => {
    const replied = await control(fake("/__messages"), {
      channel_id: "410000000000000003",
      content: "deploys are frozen",
      author: person,
    });
    expect(
      await fetchDiscordParent(ctx(), { place: place("410000000000000003"), replyToId: replied.id!, bot }),
    ).toMatchObject({ text: "deploys are frozen" });
    expect(
      await fetchDiscordParent(ctx(), { place: place("410000000000000004"), replyToId: replied.id!, bot }),
    ).toBeNull();
    expect(await fetchDiscordParent(ctx(), { place: place("410000000000000003"), bot })).toBeNull();
    expect(await fetchDiscordParent(ctx(), { place: place("410000000000000005", `dm:${person.id}`), bot })).toBeNull();
  });
});
