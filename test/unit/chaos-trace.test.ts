import { googleChatRequest } from "../../bench/load/google-chat-traffic.ts";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseEvents } from "../../bench/chaos/exercised.ts";
import { slackEventBody, tagOf, type Conversation } from "../../bench/chaos/plan.ts";
import { writeTrace } from "../../bench/chaos/trace.ts";

const TS = "1796229776.972000";
const CHATTER_TS = "1796229777.001000";
const PHONE = "+15551000003";
const TOKEN = "aW50ZXJhY3Rpb246c2VjcmV0LXRva2Vu";
const TEXT = `${tagOf(1)} w1n0w what do you think of plan 1?`;

/** A Slack channel conversation left unanswered, an SMS one answered twice, and one that is fine. */
const conversations: Conversation[] = [
  {
    id: 1,
    kind: "slack_channel",
    tag: tagOf(1),
    place: { platform: "slack", tenant: "TCHAOSA", channel: "CR10" },
    messages: [
      { word: "w1n0w", trigger: true, slackBody: slackEventBody("TCHAOSA", "CR10", "UAP1", TEXT, TS, {}) },
      {
        word: "w1n1w",
        trigger: false,
        slackBody: slackEventBody("TCHAOSA", "CR10", "UAP2", `${tagOf(1)} w1n1w step 1`, CHATTER_TS, {}),
      },
    ],
  },
  {
    id: 3,
    kind: "sms",
    tag: tagOf(3),
    place: { platform: "twilio", tenant: "AC0", channel: PHONE },
    messages: [{ word: "w3n0w", trigger: true, twilioParams: [["MessageSid", "SMR1000003"]] }],
  },
  {
    id: 4,
    kind: "discord_dm",
    tag: tagOf(4),
    place: { platform: "discord", tenant: "dm", channel: TOKEN },
    messages: [{ word: "w4n0w", trigger: true, discordBody: JSON.stringify({ id: "9004", channel_id: "8004" }) }],
  },
  {
    id: 5,
    kind: "gchat_space",
    tag: tagOf(5),
    place: { platform: "google-chat", tenant: "GX5", channel: "spaces/GX5", thread: "spaces/GX5/threads/T5" },
    messages: [
      {
        word: "w5n0w",
        trigger: true,
        written: {
          delivery: {
            body: { chat: { messagePayload: { message: { name: "spaces/GX5/messages/M5.M5", text: TEXT } } } },
            authorization: "Bearer eyJhbGciOiJSUzI1NiIs.x.y",
          },
          request: googleChatRequest,
        },
      },
    ],
  },
  {
    id: 100,
    kind: "slack_channel",
    tag: tagOf(100),
    place: { platform: "slack", tenant: "TCHAOSB", channel: "CR100" },
    messages: [{ word: "w100n0w", trigger: true }],
  },
];

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe("bench/chaos's trace of a broken promise", () => {
  it("keeps each named conversation's requests, faults, platform calls, log lines, QStash deliveries and keys, without text", async () => {
    const dir = await mkdtemp(join(tmpdir(), "chaos-trace-"));
    dirs.push(dir);
    const events = parseEvents([
      JSON.stringify({ event: "job_published", platform: "slack", channel: "CR10", message: TS, job: "msg_A1" }),
      JSON.stringify({ event: "qstash_retry", messageId: "msg_A1", status: 500, reason: "status_500" }),
      JSON.stringify({ event: "qstash_delivered", messageId: "msg_A1", status: 200 }),
      JSON.stringify({ event: "job_gave_up", platform: "slack", trigger: `CR10:${TS}`, note: TEXT }),
      JSON.stringify({ event: "reply_posted", platform: "twilio", channel: PHONE, parts: 1 }),
      JSON.stringify({ event: "job_ended", platform: "slack", channel: "CR100", outcome: "answered" }),
      JSON.stringify({ event: "job_ended", platform: "google-chat", channel: "GX5", trigger: "M5.M5", outcome: "x" }),
      "not a log line",
    ]);
    const path = await writeTrace({
      dir,
      seed: 8,
      counters: { unanswered: 1, answered_twice: 1, leaks: 1 },
      problems: [
        "unanswered: conversation 1 (slack_channel) at slack|CR10|",
        `answered_twice: 1 apolog(ies) too many at twilio|${PHONE}|: ["${tagOf(3)} w3n0w you said"]`,
        `leak: DM 4's secret in a prompt ending "dmsecret4x ${TEXT}"`,
        'misplaced: google-chat|spaces/GX5|spaces/GX5/threads/T5 got "("',
        "idempotency: 1 calls reused a key with other arguments",
      ],
      conversations,
      sources: {
        deliveries: [
          { at: 1000, word: "w1n0w", status: 503 },
          { at: 1200, word: "w1n0w", status: 200, retry: 1 },
          { at: 1300, word: `${tagOf(1)}-white_check_mark-0`, status: 200 },
          { at: 1400, word: "w100n0w", status: 200 },
        ],
        faults: {
          slack: [{ rule: 3, fault: "refuse", path: "/chat.postMessage", at: 1500, channel: "CR10", text: TEXT }],
          qstash: [{ rule: 7, fault: "refuse_publish", path: "/v2/publish", at: 1100, messageId: "msg_A1" }],
          redis: [
            { rule: 9, fault: "drop_after", path: "/pipeline", at: 1250 },
            { rule: 9, fault: "drop_after", path: "/pipeline", at: 99_999 },
          ],
          twilio: [{ rule: 5, fault: "drop_after", path: "/messages.create", at: 1600, to: PHONE, body: TEXT }],
        },
        platformCalls: {
          slack: [
            { seq: 1, at: 1500, method: "chat.postMessage", channel: "CR10", status: "fault", text: TEXT },
            { seq: 2, at: 1700, method: "conversations.history", channel: "CR100", status: 200, ok: true },
          ],
          twilio: [{ at: 1600, sid: "SM1", to: PHONE, body: `${tagOf(3)} w3n0w`, status: "queued" }],
          discord: [{ at: 1650, route: "edit_original", token: TOKEN, content: "dmsecret4x" }],
        },
        events,
        redisKeys: async (ids) =>
          ids.includes("CR10")
            ? [{ key: "chaos:conv:slack|TCHAOSA|CR10|:log", type: "zset", ttl: 86_000 }]
            : ids.includes(PHONE)
              ? [{ key: `chaos:conv:twilio|AC0|${PHONE}|:log`, type: "zset", ttl: 3_600 }]
              : [],
      },
    });
    expect(path.startsWith(dir)).toBe(true);
    const written = await readFile(path, "utf8");
    const trace = JSON.parse(written);

    expect(trace).toMatchObject({ seed: 8, counters: { unanswered: 1 }, unattributed: ["idempotency"] });
    expect(trace.conversations.map((c: { id: number }) => c.id)).toEqual([1, 3, 4, 5]);
    const [slack, sms, discord, chat] = trace.conversations;
    expect(chat).toMatchObject({ counters: ["misplaced"], log_events: [{ event: "job_ended", trigger: "M5.M5" }] });
    expect(slack).toMatchObject({
      kind: "slack_channel",
      counters: ["unanswered", "leak"],
      place: { platform: "slack", tenant: "TCHAOSA", channel: "CR10" },
      messages: [
        { message: "n0", trigger: true },
        { message: "n1", trigger: false },
      ],
      requests: [
        { message: "n0", at: 1000, status: 503 },
        { message: "n0", at: 1200, status: 200, retry: 1 },
        { message: "reaction:white_check_mark:0", at: 1300, status: 200 },
      ],
      platform_calls: { slack: [{ seq: 1, method: "chat.postMessage", channel: "CR10", status: "fault" }] },
      redis_keys: [{ key: "chaos:conv:slack|TCHAOSA|CR10|:log", type: "zset", ttl: 86_000 }],
    });
    expect(slack.faults).toEqual([
      { boundary: "slack", rule: 3, fault: "refuse", path: "/chat.postMessage", at: 1500, channel: "CR10" },
      { boundary: "qstash", rule: 7, fault: "refuse_publish", path: "/v2/publish", at: 1100, messageId: "msg_A1" },
      { boundary: "redis", in_its_time: true, rule: 9, fault: "drop_after", path: "/pipeline", at: 1250 },
    ]);
    expect(slack.log_events.map((e: { event: string }) => e.event)).toEqual(["job_published", "job_gave_up"]);
    expect(slack.qstash).toEqual([
      { event: "qstash_retry", messageId: "msg_A1", status: 500, reason: "status_500" },
      { event: "qstash_delivered", messageId: "msg_A1", status: 200 },
    ]);
    expect(sms).toMatchObject({
      counters: ["answered_twice"],
      place: { platform: "twilio", channel: "phone#3" },
      platform_calls: { twilio: [{ sid: "SM1", to: "phone#3", status: "queued" }] },
      redis_keys: [{ key: "chaos:conv:twilio|AC0|phone#3|:log" }],
    });
    expect(discord).toMatchObject({
      counters: ["leak"],
      place: { channel: "interaction-token#4" },
      platform_calls: { discord: [{ route: "edit_original", token: "interaction-token#4" }] },
    });

    // No text, no phone number, no token, nothing of the conversation that is fine.
    for (const what of [
      "kz1kz",
      "w1n0w",
      "w3n0w",
      "plan 1",
      "step 1",
      "dmsecret",
      "you said",
      PHONE,
      TOKEN,
      "CR100",
      "eyJhbGci",
    ])
      expect(written).not.toContain(what);
  });
});

describe("bench/chaos's trace of an approval that never ran", () => {
  it("shows who pressed and the asker's ✅ through the Gateway, with the lines logged under the question's id", async () => {
    const dir = await mkdtemp(join(tmpdir(), "chaos-trace-"));
    dirs.push(dir);
    const [guild, channel, trigger, question] = ["3100", "3200", "9221", "7777"];
    const ask = { id: trigger, channel_id: channel, guild_id: guild, member: { user: { id: "5000" } } };
    const c: Conversation = {
      id: 221,
      kind: "discord_guild",
      tag: tagOf(221),
      place: { platform: "discord", tenant: guild, channel: TOKEN },
      messages: [{ word: "w221n0w", trigger: true, discordBody: JSON.stringify(ask) }],
    };
    const opened = { event: "approval_opened", platform: "discord", channel, trigger, question, opened: true };
    const press = { event: "approval_control", platform: "discord", message: question, decided: false, asker: false };
    const other = { event: "approval_control", platform: "discord", message: "7778", decided: true };
    const path = await writeTrace({
      dir,
      seed: 2,
      counters: { approved_unrun: 1 },
      problems: [`approved_unrun: conversation ${tagOf(221)}'s accepted approval never ran`],
      conversations: [c],
      sources: {
        deliveries: [
          { at: 1000, word: "w221n0w", status: 200 },
          { at: 2000, word: `${tagOf(221)}-press-approve-stranger-4`, status: 200 },
          { at: 2100, word: `${tagOf(221)}-gateway_approve-0`, status: 200 },
        ],
        faults: {},
        platformCalls: {},
        events: parseEvents([opened, press, other].map((e) => JSON.stringify(e))),
        redisKeys: async () => [],
      },
    });
    const [traced] = JSON.parse(await readFile(path, "utf8")).conversations;
    // The only press was a stranger's (refused, as it must be); the asker answered by a ✅ that was never decided.
    expect(traced.requests).toEqual([
      { message: "n0", at: 1000, status: 200 },
      { message: "press:approve:stranger:4", at: 2000, status: 200 },
      { message: "reaction:gateway_approve:0", at: 2100, status: 200 },
    ]);
    expect(traced.log_events).toEqual([opened, press]);
  });
});
