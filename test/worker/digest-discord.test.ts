/**
 * @module
 * A place's digest on Discord (issue #43): `/parley digest period:daily time:09:00 zone:Europe/Berlin` from a
 * member who may manage the channel creates one QStash schedule; at 09:00 Berlin the channel gets one message
 * summing up what was said there since, each point a jump link (the read ends at the slot's time, no message:
 * Get Channel Messages `before` the slot's snowflake), once though QStash delivers the slot twice at the same time;
 * one without Manage Channels is refused.
 */
import { Client } from "@upstash/qstash";
import { beforeAll, describe, expect, it } from "vitest";
import { discordFakeOrigin } from "../../dev/fakes/discord/interaction-answers.ts";
import { generateDiscordKeys, type DiscordSigningKeys } from "../../dev/signers/discord.ts";
import { askInteraction, discordCalls, discordMessageAt, snowflake } from "../support/discord.ts";
import { interactAsDiscord } from "../support/discord-worker.ts";
import { injectedFaults, scriptFault } from "../support/fault-control.ts";
import { scriptModel } from "../support/model.ts";
import { prodTimingSuite } from "../support/prod-timing.ts";
import { readClock } from "../support/qstash-clock.ts";
import { pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "digestdiscord";
const GUILD = "340000000000000043";
const dana = { id: "250000000000000431", name: "Dana" };
const erin = { id: "250000000000000432", name: "Erin" };
/** View Channel, Send Messages, Read Message History; and with Manage Channels (1 << 4). */
const MEMBER = String((1n << 10n) | (1n << 11n) | (1n << 16n));
const MANAGER = String(BigInt(MEMBER) | (1n << 4n));
const kit = prodTimingSuite(SUITE, { DISCORD_BOT_TOKEN: "test-discord-bot-token" });
const FAKE = discordFakeOrigin(String(kit.env.DISCORD_API_BASE_URL));
const qstash = new Client({ baseUrl: kit.qstashUrl, token: String(kit.env.QSTASH_TOKEN), devMode: false });
let keys: DiscordSigningKeys;

beforeAll(async () => {
  keys = await generateDiscordKeys();
  kit.env.DISCORD_PUBLIC_KEY = keys.publicKeyHex;
  const res = await fetch(`${FAKE}/__guild`, {
    method: "POST",
    body: JSON.stringify({
      id: GUILD,
      owner_id: dana.id,
      roles: [{ id: GUILD, permissions: MEMBER }],
      members: [dana, erin].map((p) => ({ user_id: p.id, roles: [] })),
    }),
  });
  expect(res.ok).toBe(true);
});
pumpJobsDuringSuite(kit.env, SUITE);

/** `/parley digest` in `channel` by `who`, with the member's `permissions`; the ephemeral answer's text. */
async function digestCommand(channel: string, who: typeof dana, permissions: string, options: [string, string][]) {
  const base = askInteraction({ guildId: GUILD, channelId: channel }, who, "unused");
  const res = await interactAsDiscord(kit.env, keys, {
    ...base,
    member: { ...base.member!, permissions },
    data: {
      id: snowflake(),
      name: "parley",
      type: 1,
      options: [{ name: "digest", type: 1, options: options.map(([name, value]) => ({ name, type: 3, value })) }],
    },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { content: string } }).data.content;
}

/** A message the channel has, written at `at` (ms); its id. */
const inDiscord = (channel: string, author: typeof dana, content: string, at: number) =>
  discordMessageAt(String(kit.env.DISCORD_API_BASE_URL), channel, author, content, at);

describe("a place's digest on Discord", () => {
  it("posts one digest at 09:00 Berlin with jump links; only a manager sets it", async () => {
    const channel = `46${String(Date.now()).slice(-10)}0001`;
    const tag = `dgd-${channel}`;
    const options: [string, string][] = [
      ["period", "daily"],
      ["time", "09:00"],
      ["zone", "Europe/Berlin"],
    ];
    expect(await digestCommand(channel, erin, MEMBER, options)).toMatch(/^Only a workspace or server admin/);
    expect(await digestCommand(channel, dana, MANAGER, options)).toMatch(/^Done\. Digest: daily at 09:00/);
    const schedules = (await qstash.schedules.list()).filter((s) => String(s.body).includes(GUILD));
    expect(schedules.map((s) => s.cron)).toEqual(["CRON_TZ=Europe/Berlin 0 9 * * *"]);
    const slot = schedules[0]?.nextScheduleTime ?? 0;

    const first = await inDiscord(channel, erin, `the build is red again ${tag}`, slot - 3_600_000);
    await inDiscord(channel, dana, `I'll bisect it after lunch ${tag}`, slot - 1_800_000);
    await inDiscord(channel, erin, `after the slot, for tomorrow ${tag}-later`, slot + 30_000);
    await scriptModel({ match: tag, reply: "Topics:\n- the red build [1]\nWaiting on:\n- Dana bisects [2]" });
    // QStash delivers the slot twice at once: one attempt posts, the other finds the slot taken, then done.
    await scriptFault(kit.qstashUrl, { fault: "duplicate", concurrent: true, path: `/t/${SUITE}/jobs/digest` });
    const { now } = await readClock(kit.qstashUrl);
    const passed = await kit.timePasses(slot + 60_000 - now);
    expect(passed.deliveries.filter((d) => d.path === `/t/${SUITE}/jobs/digest`).at(-1)?.status).toBe(200);
    expect(await injectedFaults(kit.qstashUrl, { fault: "duplicate" })).toHaveLength(1);

    const posts = (
      await discordCalls(String(kit.env.DISCORD_API_BASE_URL), { route: "channel_message", channelId: channel })
    ).filter((c) => JSON.stringify(c).includes("Digest"));
    expect(posts).toHaveLength(1);
    const text = JSON.stringify(posts[0]);
    expect(text).toContain(`https://discord.com/channels/${GUILD}/${channel}/${first}`);
    expect(text).toContain("the red build");
    expect(text).not.toContain("for tomorrow");
  });
});
