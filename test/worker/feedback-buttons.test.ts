/**
 * Feedback on answers (docs/tools.md, "Feedback on answers"): where a place turned it on (`/parley feedback on`), the
 * final message of each answer gets 👍 / 👎 by an edit (Slack: a `feedback_buttons` element in a `context_actions`
 * block; Discord: two secondary buttons), never a new message. A press is recorded once per person and answer (a
 * double click and a redelivery of the same signed body count once), always thanked privately, and counted per
 * place in the admin view; a 👎 under an unprompted answer (initiative) is "not you" feedback in the conversation.
 * Off by default. Every job is delivered twice at once. The Slack press is Slack's documented block_actions payload
 * for a feedback button (test/fixtures/platforms/slack/block-actions-feedback.json).
 */
import { describe, expect, it } from "vitest";
import { SLACK_FAKE_DEFAULT_TEAM } from "../../dev/fakes/slack/workspaces.ts";
import { generateDiscordKeys } from "../../dev/signers/discord.ts";
import { slackHeaders } from "../../dev/signers/slack.ts";
import fixture from "../fixtures/platforms/slack/block-actions-feedback.json";
import components from "../fixtures/platforms/discord/interactions-components.json";
import { askInteraction, discordCalls, snowflake } from "../support/discord.ts";
import { interactAsDiscord } from "../support/discord-worker.ts";
import { scriptModel } from "../support/model.ts";
import {
  BOT_USER_ID,
  newSlackPlace,
  SLACK_SIGNING_SECRET,
  signedSlackRequest,
  slackMessageEvent,
} from "../support/slack.ts";
import { slackMessages } from "../support/streams.ts";
import {
  callWorker,
  eventually,
  pumpJobsDuringSuite,
  SLACK_API_BASE_URL,
  settle,
  suiteEnv,
} from "../support/worker.ts";

const SUITE = "feedbackbtn";
const ADMIN_TOKEN = "admin-token-for-feedback-buttons-0123456789";
const keys = await generateDiscordKeys();
const env = suiteEnv(SUITE, {
  ADMIN_TOKEN,
  DISCORD_PUBLIC_KEY: keys.publicKeyHex,
  DISCORD_BOT_TOKEN: "test-discord-bot-token",
  FOLLOWUP_WINDOW_SECONDS: "60",
  USE_LLM_JUDGE: "false",
  MEMORY_ENABLED: "false",
});
pumpJobsDuringSuite(env, SUITE, { deliverEach: 2 });
const SLACK_CONTROL = SLACK_API_BASE_URL.replace(/\/api$/, "");
const ADMIN = "UFBADMIN";
const THANKS = "Thanks — noted.";

type Place = ReturnType<typeof newSlackPlace>;
interface FeedbackButton {
  text: { type: string; text: string };
  value: string;
}
interface Block {
  type: string;
  block_id?: string;
  elements?: { type: string; positive_button?: FeedbackButton; negative_button?: FeedbackButton }[];
}
interface SlackMessage {
  ts: string;
  text: string;
  bot_id?: string;
  blocks?: Block[];
}

async function admin(key: string) {
  const res = await callWorker(
    env,
    new Request(`https://bot.test/admin/conversations/${encodeURIComponent(key)}`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "CF-Connecting-IP": "192.0.2.38" },
    }),
  );
  return (await res.json()) as {
    feedback: { up: number; down: number; not_you: number };
    conversation?: { messages: { authorId: string; feedback?: string }[] };
  };
}

async function parley(place: Place, text: string): Promise<string> {
  await fetch(`${SLACK_CONTROL}/__roles`, {
    method: "POST",
    body: JSON.stringify({ team: SLACK_FAKE_DEFAULT_TEAM.id, admins: [ADMIN] }),
  });
  const body = new URLSearchParams({
    team_id: place.team,
    channel_id: place.channel,
    user_id: ADMIN,
    command: "/parley",
    text,
  });
  const headers = {
    "Content-Type": "application/x-www-form-urlencoded",
    ...(await slackHeaders(SLACK_SIGNING_SECRET, body.toString())),
  };
  const res = await callWorker(
    env,
    new Request("https://bot.test/slack/commands", { method: "POST", headers, body: body.toString() }),
  );
  return ((await res.json()) as { text: string }).text;
}

async function say(place: Place, user: string, text: string): Promise<void> {
  const event = slackMessageEvent({ team: place.team, channel: place.channel, user, text });
  expect((await callWorker(env, await signedSlackRequest(event.body))).status).toBe(200);
}

const botMessages = async (place: Place) =>
  ((await slackMessages(place.channel)) as SlackMessage[])
    .filter((m) => m.bot_id)
    .sort((a, b) => Number(a.ts) - Number(b.ts));

const feedbackOf = (m: SlackMessage | undefined) => m?.blocks?.find((b) => b.type === "context_actions")?.elements?.[0];

/** The bot's `count`th message, once its feedback buttons are on. */
const withFeedback = (place: Place, count: number) =>
  eventually(
    async () => {
      const shown = (await botMessages(place))[count - 1];
      return feedbackOf(shown) !== undefined && shown;
    },
    20_000,
    "the answer's feedback buttons",
  );

/** Slack's feedback press by `user` on button `value` of message `ts`, `times` times (the same signed body). */
async function press(place: Place, user: string, ts: string, value: string, times = 1): Promise<void> {
  const payload = structuredClone(fixture.payload);
  Object.assign(payload.user, { id: user, team_id: place.team });
  Object.assign(payload.container, { message_ts: ts, channel_id: place.channel });
  Object.assign(payload.team, { id: place.team });
  Object.assign(payload.channel, { id: place.channel });
  Object.assign(payload.actions[0]!, { value, block_id: `parley_feedback:${ts}` });
  const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  const headers = {
    "Content-Type": "application/x-www-form-urlencoded",
    ...(await slackHeaders(SLACK_SIGNING_SECRET, body)),
  };
  for (let i = 0; i < times; i++) {
    const request = new Request("https://bot.test/slack/interactions", { method: "POST", headers, body });
    const started = Date.now();
    expect((await callWorker(env, request)).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(3_000);
  }
}

async function ephemerals(place: Place, user: string): Promise<string[]> {
  const url = `${SLACK_CONTROL}/__ephemerals?${new URLSearchParams({ channel: place.channel, user })}`;
  return ((await (await fetch(url)).json()) as { text: string }[]).map((e) => e.text);
}

describe("feedback buttons on Slack", () => {
  it("puts none under an answer where the place did not turn feedback on", async () => {
    const place = newSlackPlace("FBOFF");
    await say(place, "UASKER", `<@${BOT_USER_ID}> what is a good name for a cat?`);
    await eventually(async () => (await botMessages(place)).length === 1, 20_000, "the answer");
    await settle(1_500);
    const [answer] = await botMessages(place);
    expect(answer!.blocks).toBeUndefined();
    expect(await botMessages(place)).toHaveLength(1);
  });

  it("puts 👍 / 👎 on the final answer; a press counts once however often it comes, and is thanked privately", async () => {
    const place = newSlackPlace("FBON");
    expect(await parley(place, "feedback on")).toMatch(/Feedback: on\.$/);
    await say(place, "UASKER", `<@${BOT_USER_ID}> which tea goes with rain?`);
    const answer = await withFeedback(place, 1);
    const buttons = feedbackOf(answer)!;
    expect(buttons.type).toBe("feedback_buttons");
    // A block id unique to the message, as Slack asks.
    expect(answer.blocks!.find((b) => b.type === "context_actions")!.block_id).toBe(`parley_feedback:${answer.ts}`);
    expect([buttons.positive_button, buttons.negative_button]).toEqual([
      { text: { type: "plain_text", text: "👍" }, value: "feedback:up:p" },
      { text: { type: "plain_text", text: "👎" }, value: "feedback:down:p" },
    ]);
    // The answer's own words stay above the buttons, and no message was added.
    expect(answer.blocks![0]!.type).toBe("markdown");
    expect(await botMessages(place)).toHaveLength(1);
    // A double click, then Slack's redelivery of the same body.
    await press(place, "UASKER", answer.ts, "feedback:up:p", 3);
    await press(place, "UOTHER", answer.ts, "feedback:down:p");
    expect(await ephemerals(place, "UASKER")).toEqual([THANKS, THANKS, THANKS]);
    expect(await ephemerals(place, "UOTHER")).toEqual([THANKS]);
    expect((await admin(`slack|${place.team}|${place.channel}|`)).feedback).toEqual({ up: 1, down: 1, not_you: 0 });
    expect(await botMessages(place)).toHaveLength(1);
  });

  it("counts a 👎 under an unprompted answer as the presser's 'not you'", async () => {
    const place = newSlackPlace("FBUNASKED");
    await parley(place, "feedback on");
    await parley(place, "initiative on");
    await parley(place, "eagerness 100");
    const marker = `unasked-${place.id}`;
    await scriptModel({ match: marker, reply: "Peppermint keeps well in a dark cupboard." });
    await say(place, "UALICE", `<@${BOT_USER_ID}> how should I store loose tea?`);
    await withFeedback(place, 1);
    await say(place, "UBOB", `mine always goes stale in a tin ${marker}`);
    const unprompted = await withFeedback(place, 2);
    expect(feedbackOf(unprompted)!.negative_button!.value).toBe("feedback:down:u");
    await press(place, "UBOB", unprompted.ts, "feedback:down:u", 2);
    const key = `slack|${place.team}|${place.channel}|`;
    const view = await eventually(
      async () => {
        const shown = await admin(key);
        return shown.conversation?.messages.some((m) => m.feedback === "not_you") && shown;
      },
      10_000,
      "the 'not you' feedback in the conversation",
    );
    expect(view.feedback).toEqual({ up: 0, down: 0, not_you: 1 });
    expect(view.conversation!.messages.filter((m) => m.feedback === "not_you").map((m) => m.authorId)).toEqual([
      "UBOB",
    ]);
  });
});

const GUILD = "310000000000000038";
const ASKER = "210000000000000038";
/** View Channel, Send Messages and Manage Channels (1 << 4): may change the channel's settings. */
const MANAGER = String((1n << 10n) | (1n << 11n) | (1n << 4n));
let seq = 0;
const newChannel = () => `44${String(Date.now()).slice(-10)}${String(++seq).padStart(4, "0")}`;
const pressCase = components.cases.find((c) => c.name.includes("Parley's Approve"))!.payload as unknown as {
  member: { user: Record<string, unknown> };
  message: Record<string, unknown>;
  data: { custom_id: string };
};

async function discordParley(channelId: string, state: "on" | "off"): Promise<string> {
  const interaction = askInteraction({ guildId: GUILD, channelId }, { id: ASKER, name: "Alice" }, "");
  Object.assign(interaction.member!, { permissions: MANAGER });
  interaction.data = {
    id: snowflake(),
    name: "parley",
    type: 1,
    options: [{ name: "feedback", type: 1, options: [{ name: "state", type: 3, value: state }] }],
  } as unknown as typeof interaction.data;
  const res = await interactAsDiscord(env, keys, interaction);
  return ((await res.json()) as { data: { content: string } }).data.content;
}

async function discordMessage(id: string) {
  const origin = String(env.DISCORD_API_BASE_URL).replace(/\/api\/v10$/, "");
  const [stored] = (await (await fetch(`${origin}/__messages?id=${id}`)).json()) as {
    message: { content: string; components?: { components: { custom_id: string; style: number; label: string }[] }[] };
  }[];
  return stored!.message;
}

describe("feedback buttons on Discord", () => {
  it("puts two secondary buttons on the /ask answer; a press counts once and is answered privately", async () => {
    const channelId = newChannel();
    expect(await discordParley(channelId, "on")).toMatch(/Feedback: on\.$/);
    const interaction = askInteraction(
      { guildId: GUILD, channelId },
      { id: ASKER, name: "Alice" },
      "which tea goes with rain?",
    );
    expect((await interactAsDiscord(env, keys, interaction)).status).toBe(200);
    const api = String(env.DISCORD_API_BASE_URL);
    const [answered] = await eventually(
      async () => {
        const calls = await discordCalls(api, { token: interaction.token, route: "edit_original" });
        return calls.length > 0 && calls;
      },
      20_000,
      "the answer",
    );
    const id = String(answered!.id);
    const shown = await eventually(
      async () => {
        const message = await discordMessage(id);
        return (message.components?.length ?? 0) > 0 && message;
      },
      20_000,
      "the answer's buttons",
    );
    expect(shown.components![0]!.components.map((b) => [b.custom_id, b.style, b.label])).toEqual([
      ["parley_feedback:up:p", 2, "👍"],
      ["parley_feedback:down:p", 2, "👎"],
    ]);
    const body = structuredClone(pressCase);
    Object.assign(body, {
      id: snowflake(),
      token: `press${snowflake()}${"x".repeat(40)}`,
      guild_id: GUILD,
      channel_id: channelId,
    });
    Object.assign(body.member.user, { id: ASKER, username: "alice" });
    Object.assign(body.message, { id, channel_id: channelId });
    body.data.custom_id = "parley_feedback:up:p";
    for (let i = 0; i < 2; i++) {
      const res = await interactAsDiscord(env, keys, body);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ type: 4, data: { content: THANKS, flags: 64 } });
    }
    expect((await admin(`discord|${GUILD}|${channelId}|`)).feedback).toEqual({ up: 1, down: 0, not_you: 0 });
    expect((await discordMessage(id)).content).toBe(shown.content);
  });
});
