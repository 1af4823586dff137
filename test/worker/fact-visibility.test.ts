import { Redis } from "@upstash/redis/cloudflare";
import { beforeAll, describe, expect, it } from "vitest";
import { generateDiscordKeys, type DiscordSigningKeys } from "../../dev/signers/discord.ts";
import { askInteraction, discordCalls, failDiscordCalls } from "../support/discord.ts";
import { interactAsDiscord } from "../support/discord-worker.ts";
import { replyPrompt, storedFacts } from "../support/memory.ts";
import {
  BOT_USER_ID,
  distinctSlackTs,
  newSlackPlace,
  signedSlackRequest,
  slackMessageEvent,
  slackPosts,
} from "../support/slack.ts";
import { callWorker, eventually, pumpJobsDuringSuite, suiteEnv } from "../support/worker.ts";

const SUITE = "factvis";
const PREFIX = `t-${SUITE}`;
const env = suiteEnv(SUITE, { MEMORY_ENABLED: "true", DISCORD_BOT_TOKEN: "test-discord-bot-token" });
const redis = new Redis({ url: String(env.UPSTASH_REDIS_REST_URL), token: String(env.UPSTASH_REDIS_REST_TOKEN) });
let seq = 0;
let discordKeys: DiscordSigningKeys;

pumpJobsDuringSuite(env, SUITE);
beforeAll(async () => {
  discordKeys = await generateDiscordKeys();
  env.DISCORD_PUBLIC_KEY = discordKeys.publicKeyHex;
});

type ChannelType = "channel" | "group" | "im" | "mpim";

/** A message to the bot as Slack delivers it: a mention in a channel, plain text in a DM. */
async function tellSlack(
  team: string,
  channel: string,
  channelType: ChannelType,
  user: string,
  text: string,
): Promise<void> {
  const addressed = channelType === "im" ? text : `<@${BOT_USER_ID}> ${text}`;
  const event = slackMessageEvent({ team, channel, channelType, user, text: addressed, ts: distinctSlackTs() });
  expect((await callWorker(env, await signedSlackRequest(event.body))).status).toBe(200);
  await eventually(
    async () => (await slackPosts(channel)).some((p) => p.text.includes(text.slice(-20))) || undefined,
    15_000,
    `the answer in ${channel}`,
  );
}

const guildId = "320000000000000001";
const DISCORD_API = () => String(env.DISCORD_API_BASE_URL);
const VIEW_CHANNEL = String(1 << 10);

/** A Discord channel id, described to the fake as hidden from @everyone when `hidden`. */
async function discordChannel(hidden: boolean): Promise<string> {
  const id = `42${String(Date.now()).slice(-12)}${String(++seq).padStart(4, "0")}`;
  if (hidden) {
    const res = await fetch(`${DISCORD_API().replace(/\/api\/v10$/, "")}/__channel`, {
      method: "POST",
      body: JSON.stringify({
        id,
        guild_id: guildId,
        permission_overwrites: [{ id: guildId, type: 0, allow: "0", deny: VIEW_CHANNEL }],
      }),
    });
    expect(res.ok).toBe(true);
  }
  return id;
}

async function askDiscord(channelId: string, user: { id: string; name: string }, question: string): Promise<void> {
  const interaction = askInteraction({ guildId, channelId }, user, question);
  expect((await interactAsDiscord(env, discordKeys, interaction)).status).toBe(200);
  await eventually(
    async () => (await discordCalls(DISCORD_API(), { token: interaction.token })).length > 0,
    15_000,
    "the answer on Discord",
  );
}

describe("where a fact may be shown", () => {
  it("keeps a fact said in a Slack DM out of a public channel's prompt, and shows it back in that DM", async () => {
    const { id } = newSlackPlace("VIS");
    const team = `TVIS${id}`;
    const user = `UVIS${id}`;
    await tellSlack(team, `D${id}`, "im", user, `My diagnosis is diabetes. dm-${id}`);
    await eventually(
      async () => (await storedFacts(redis, PREFIX, { platform: "slack", tenant: team }, user)).includes("diabetes"),
      15_000,
      "the DM fact",
    );

    await tellSlack(team, `C${id}`, "channel", user, `what should I cook tonight? public-${id}`);
    expect(JSON.stringify((await replyPrompt(`public-${id}`)).messages)).not.toContain("diabetes");

    await tellSlack(team, `D${id}`, "im", user, `and for lunch? back-${id}`);
    expect(JSON.stringify((await replyPrompt(`back-${id}`)).messages)).toContain("diabetes");
  });

  it("shows a fact said in a public Slack channel in a DM, and one said in a private channel only there", async () => {
    const { id } = newSlackPlace("VIS");
    const team = `TVIS${id}`;
    const user = `UVIS${id}`;
    await tellSlack(team, `C${id}`, "channel", user, `I live in Lisbon. pub-${id}`);
    await tellSlack(team, `G${id}`, "group", user, `My salary is 90k. priv-${id}`);
    await eventually(
      async () => (await storedFacts(redis, PREFIX, { platform: "slack", tenant: team }, user)).includes("salary"),
      15_000,
      "both facts",
    );

    await tellSlack(team, `D${id}`, "im", user, `any plans? dm-${id}`);
    const dm = JSON.stringify((await replyPrompt(`dm-${id}`)).messages);
    expect(dm).toContain("lives in Lisbon");
    expect(dm).not.toContain("salary");

    await tellSlack(team, `G${id}`, "group", user, `budget? again-${id}`);
    expect(JSON.stringify((await replyPrompt(`again-${id}`)).messages)).toContain("salary");
  });

  it("keeps a fact said in a Discord channel hidden from @everyone out of a public channel's prompt", async () => {
    const alice = { id: `23${String(Date.now()).slice(-12)}${String(++seq).padStart(4, "0")}`, name: "Alice" };
    const hidden = await discordChannel(true);
    const open = await discordChannel(false);
    await askDiscord(open, alice, `I'm a cyclist. open-${hidden}`);
    await askDiscord(hidden, alice, `I'm pregnant. hidden-${hidden}`);
    await eventually(
      async () =>
        (await storedFacts(redis, PREFIX, { platform: "discord", tenant: guildId }, alice.id)).includes("pregnant"),
      15_000,
      "the private fact",
    );

    await askDiscord(open, alice, `what sport suits me? later-${hidden}`);
    const prompt = JSON.stringify((await replyPrompt(`later-${hidden}`)).messages);
    expect(prompt).toContain("is a cyclist");
    expect(prompt).not.toContain("pregnant");
  });

  it("counts a Discord channel whose permissions cannot be read as private", async () => {
    const alice = { id: `24${String(Date.now()).slice(-12)}${String(++seq).padStart(4, "0")}`, name: "Alice" };
    const unreadable = await discordChannel(false);
    const open = await discordChannel(false);
    await failDiscordCalls(DISCORD_API(), { route: "get_channel", channelId: unreadable, status: 500, times: 10 });
    await askDiscord(unreadable, alice, `I'm in debt. unreadable-${unreadable}`);
    await eventually(
      async () =>
        (await storedFacts(redis, PREFIX, { platform: "discord", tenant: guildId }, alice.id)).includes("debt"),
      15_000,
      "the fact",
    );

    await askDiscord(open, alice, `any advice? open-${unreadable}`);
    expect(JSON.stringify((await replyPrompt(`open-${unreadable}`)).messages)).not.toContain("debt");
  });
});
