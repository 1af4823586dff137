/**
 * @module
 * A person's own digest on Discord (issue #43): `/parley digest period:daily time:08:30 me:True` creates one QStash
 * schedule for the person; at 08:30 they get one DM (Create DM) with a section per public channel of the server
 * they may view: never a private channel's talk (even one their role lets them into), nor a public channel's whose
 * overwrites hide it from them; once they leave the server, the next run sends nothing.
 */
import { Client } from "@upstash/qstash";
import { beforeAll, describe, expect, it } from "vitest";
import { discordFakeOrigin } from "../../dev/fakes/discord/interaction-answers.ts";
import { generateDiscordKeys, type DiscordSigningKeys } from "../../dev/signers/discord.ts";
import { askInteraction, discordCalls, discordMessageAt, snowflake } from "../support/discord.ts";
import { interactAsDiscord } from "../support/discord-worker.ts";
import { modelRequests, scriptModel } from "../support/model.ts";
import { prodTimingSuite } from "../support/prod-timing.ts";
import { readClock } from "../support/qstash-clock.ts";
import { pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "digestmediscord";
const DAY_MS = 86_400_000;
const GUILD = "340000000000000044";
const TEAM_ROLE = "340000000000000045";
const dana = { id: "250000000000000441", name: "Dana" };
const erin = { id: "250000000000000442", name: "Erin" };
const VIEW = 1n << 10n;
/** View Channel, Send Messages, Read Message History. */
const MEMBER = String(VIEW | (1n << 11n) | (1n << 16n));
const kit = prodTimingSuite(SUITE, { DISCORD_BOT_TOKEN: "test-discord-bot-token" });
const API = String(kit.env.DISCORD_API_BASE_URL);
const FAKE = discordFakeOrigin(API);
const PERSONAL_PATH = `/t/${SUITE}/jobs/digest_me`;
const qstash = new Client({ baseUrl: kit.qstashUrl, token: String(kit.env.QSTASH_TOKEN), devMode: false });
const stamp = String(Date.now()).slice(-10);
const general = `47${stamp}0001`;
const secret = `47${stamp}0002`;
const hidden = `47${stamp}0003`;
let keys: DiscordSigningKeys;

const control = async (path: string, body: unknown) => {
  const res = await fetch(`${FAKE}${path}`, { method: "POST", body: JSON.stringify(body) });
  expect(res.ok).toBe(true);
};
const guildWith = (people: (typeof dana)[]) =>
  control("/__guild", {
    id: GUILD,
    owner_id: "1",
    roles: [
      { id: GUILD, permissions: MEMBER },
      { id: TEAM_ROLE, permissions: "0" },
    ],
    members: people.map((p) => ({ user_id: p.id, roles: [TEAM_ROLE] })),
  });

beforeAll(async () => {
  keys = await generateDiscordKeys();
  kit.env.DISCORD_PUBLIC_KEY = keys.publicKeyHex;
  await guildWith([dana, erin]);
  const text = { guild_id: GUILD, type: 0 };
  await control("/__channel", { ...text, id: general, name: "general" });
  // Private: hidden from @everyone, open to the team role Dana has.
  await control("/__channel", {
    ...text,
    id: secret,
    name: "leads",
    permission_overwrites: [
      { id: GUILD, type: 0, allow: "0", deny: String(VIEW) },
      { id: TEAM_ROLE, type: 0, allow: String(VIEW), deny: "0" },
    ],
  });
  // Public, but an overwrite hides it from Dana herself.
  await control("/__channel", {
    ...text,
    id: hidden,
    name: "hiring",
    permission_overwrites: [{ id: dana.id, type: 1, allow: "0", deny: String(VIEW) }],
  });
});
pumpJobsDuringSuite(kit.env, SUITE);

/** `/parley digest` with `options` (a string's, or `me`'s switch) by `who` in #general; the ephemeral answer. */
async function digestCommand(who: typeof dana, options: [string, string | boolean][]) {
  const base = askInteraction({ guildId: GUILD, channelId: general }, who, "unused");
  const res = await interactAsDiscord(kit.env, keys, {
    ...base,
    member: { ...base.member!, permissions: MEMBER },
    data: {
      id: snowflake(),
      name: "parley",
      type: 1,
      options: [
        {
          name: "digest",
          type: 1,
          options: options.map(([name, value]) => ({ name, type: typeof value === "boolean" ? 5 : 3, value })),
        },
      ],
    },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { content: string } }).data.content;
}

const inDiscord = (channel: string, content: string, at: number) => discordMessageAt(API, channel, erin, content, at);

/** The stand-in's clock moved to `to`; the personal digest's deliveries meanwhile. */
async function until(to: number) {
  const { now } = await readClock(kit.qstashUrl);
  return (await kit.timePasses(Math.max(0, to - now))).deliveries.filter((d) => d.path === PERSONAL_PATH);
}

describe("a person's own digest on Discord", () => {
  it("DMs the public channels they may view, never a private one's talk, and nothing once they left", async () => {
    const tag = `dmd-${stamp}`;
    const answer = await digestCommand(dana, [
      ["period", "daily"],
      ["time", "08:30"],
      ["me", true],
    ]);
    expect(answer).toMatch(/^Done\. Your digest, in a DM: daily at 08:30 \(UTC\)\./);
    const schedules = (await qstash.schedules.list()).filter((s) => s.destination.endsWith(PERSONAL_PATH));
    expect(schedules.map((s) => s.cron)).toEqual(["CRON_TZ=UTC 30 8 * * *"]);
    const slot = schedules[0]?.nextScheduleTime ?? 0;

    const first = await inDiscord(general, `the demo moves to friday ${tag}`, slot - 3_600_000);
    await inDiscord(secret, `the reorg memo is final ${tag}`, slot - 3_000_000);
    await inDiscord(hidden, `the candidate said no ${tag}`, slot - 2_400_000);
    await scriptModel({ match: tag, reply: "Decisions:\n- the demo moves to friday [1]" });

    expect((await until(slot + 60_000)).at(-1)?.status).toBe(200);
    const [opened, ...reopened] = await discordCalls(API, { route: "create_dm", id: dana.id });
    expect(reopened).toEqual([]);
    const dm = String(opened?.channelId);
    const sent = await discordCalls(API, { route: "channel_message", channelId: dm });
    expect(sent).toHaveLength(1);
    const text = JSON.stringify(sent[0]);
    expect(text).toContain("Your digest");
    expect(text).toContain("#general");
    expect(text).toContain(`https://discord.com/channels/${GUILD}/${general}/${first}`);
    const calls = await modelRequests(tag);
    expect(calls).toHaveLength(1);
    expect(JSON.stringify(calls)).toContain("the demo moves to friday");
    expect(JSON.stringify([calls, sent])).not.toMatch(/reorg|candidate/);

    // Dana leaves the server: the next day's talk in #general is not hers to get.
    await guildWith([erin]);
    await inDiscord(general, `the demo slips again ${tag}`, slot + DAY_MS - 3_600_000);
    expect((await until(slot + DAY_MS + 60_000)).map((d) => d.at)).toEqual([slot + DAY_MS]);
    expect(await discordCalls(API, { route: "channel_message", channelId: dm })).toHaveLength(1);
    expect(JSON.stringify(await modelRequests(tag))).not.toContain("slips again");
  });
});
