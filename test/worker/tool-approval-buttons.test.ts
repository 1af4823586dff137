/**
 * Approval with buttons on Slack (docs/tools.md): the confirm tool's question carries Approve and Cancel buttons
 * (Block Kit, put on by chat.update once the approval is open); the asker's press decides it through the same
 * script as a ✅, and the call runs exactly once at the tool server (counted by idempotency key) however often the
 * press comes (a double click, Slack's redelivery: the same signed body again); anyone else's press changes nothing
 * and is told why, to them alone (chat.postEphemeral); the buttons give way to the outcome on the question itself.
 * Every job is delivered twice at once. The payload is Slack's documented block_actions
 * (test/fixtures/platforms/slack/block-actions.json).
 */
import { describe, expect, it } from "vitest";
import { prodTimingSuite } from "../support/prod-timing.ts";
import {
  BOT_USER_ID,
  distinctSlackTs,
  newSlackPlace,
  SLACK_CONTROL,
  signedSlackInteraction,
  signedSlackRequest,
  slackBlockActionsBody,
  slackMessageEvent,
} from "../support/slack.ts";
import { slackMessages } from "../support/streams.ts";
import { createCalls, toolServerCalls, toolSettings } from "../support/tools.ts";
import { callWorker, eventually, pumpJobsDuringSuite, settle, suiteEnv, type TestEnv } from "../support/worker.ts";

const TOOLS = "lookup_ticket,create_ticket";
const env = suiteEnv("buttons", toolSettings(TOOLS));
pumpJobsDuringSuite(env, "buttons", { deliverEach: 2 });

type Place = ReturnType<typeof newSlackPlace>;
interface Message {
  ts: string;
  text: string;
  bot_id?: string;
  blocks?: { type: string; elements?: Record<string, unknown>[] }[];
}

async function ask(testEnv: TestEnv, place: Place, text: string): Promise<string> {
  const ts = distinctSlackTs();
  const event = slackMessageEvent({ ...place, user: "UASKER", text: `<@${BOT_USER_ID}> ${text}`, ts });
  expect((await callWorker(testEnv, await signedSlackRequest(event.body))).status).toBe(200);
  return `slack|${place.team}|${place.channel}||${place.channel}:${ts}`;
}

/** The documented payload, pressed by `user` on `controlId` of message `ts`, form-encoded as Slack posts it. */
const pressBody = (place: Place, user: string, ts: string, controlId: string): string =>
  slackBlockActionsBody(place, { id: user }, ts, { action_id: controlId });

async function press(testEnv: TestEnv, place: Place, user: string, ts: string, controlId: string, times = 1) {
  const body = pressBody(place, user, ts, controlId);
  for (let i = 0; i < times; i++)
    expect((await callWorker(testEnv, await signedSlackInteraction(body))).status).toBe(200);
}

const botMessages = async (place: Place): Promise<Message[]> =>
  ((await slackMessages(place.channel)) as Message[])
    .filter((m) => m.bot_id)
    .sort((a, b) => Number(a.ts) - Number(b.ts));

/** The question, once its buttons are on. */
async function question(place: Place): Promise<Message> {
  return eventually(
    async () => (await botMessages(place)).find((m) => m.blocks?.some((b) => b.type === "actions")),
    15_000,
    "the question with its buttons",
  );
}

async function ephemerals(place: Place, user: string): Promise<string[]> {
  const url = `${SLACK_CONTROL}/__ephemerals?${new URLSearchParams({ channel: place.channel, user })}`;
  return ((await (await fetch(url)).json()) as { text: string }[]).map((e) => e.text);
}

/** What replaced the buttons: the question's context line. */
async function outcome(place: Place, ts: string): Promise<string> {
  return eventually(
    async () => {
      const asked = (await botMessages(place)).find((m) => m.ts === ts);
      const line = asked?.blocks?.find((b) => b.type === "context")?.elements?.[0]?.text;
      return typeof line === "string" && line;
    },
    15_000,
    "the outcome on the question",
  );
}

describe("a confirm tool's buttons on Slack", () => {
  it("shows Approve and Cancel; runs the call once on the asker's press, never on a stranger's", async () => {
    const place = newSlackPlace("BUTTONS");
    const key = `${await ask(env, place, 'create_ticket {"title": "Buttons work"}')}:0`;
    const asked = await question(place);
    expect(asked.text).toContain("⚠️ Approval needed: may I run create_ticket");
    const actions = asked.blocks!.find((b) => b.type === "actions")!;
    expect(actions.elements!.map((e) => [e.action_id, e.style])).toEqual([
      ["approve", "primary"],
      ["cancel", "danger"],
    ]);
    await press(env, place, "USTRANGER", asked.ts, "approve");
    expect(await ephemerals(place, "USTRANGER")).toEqual(["Only <@UASKER> can approve this."]);
    await settle(1_500);
    expect(await botMessages(place)).toHaveLength(1);
    expect((await toolServerCalls()).byKey[key]).toBeUndefined();
    // A double click, then Slack's redelivery of the same body.
    await press(env, place, "UASKER", asked.ts, "approve", 3);
    expect(await outcome(place, asked.ts)).toBe("✅ Approved by <@UASKER> — running…");
    const done = await eventually(async () => (await botMessages(place))[1], 15_000, "the result");
    expect(done.text).toContain("Done: create_ticket: Created ticket");
    await settle(1_500);
    expect(await botMessages(place)).toHaveLength(2);
    expect((await toolServerCalls()).byKey[key]).toBe(1);
    const question2 = (await botMessages(place))[0]!;
    expect(question2.blocks!.some((b) => b.type === "actions")).toBe(false);
    // The repeats were told it was decided; a later Cancel changes nothing.
    await press(env, place, "UASKER", asked.ts, "cancel");
    expect((await ephemerals(place, "UASKER")).at(-1)).toBe("This question is settled: its outcome is on it.");
    await settle(1_000);
    expect(await botMessages(place)).toHaveLength(2);
    expect((await toolServerCalls()).byKey[key]).toBe(1);
  });

  it("cancels on the asker's Cancel, once, and never calls the tool", async () => {
    const place = newSlackPlace("BUTTONNO");
    await ask(env, place, `create_ticket {"title": "Cancelled by button ${place.channel}"}`);
    const asked = await question(place);
    await press(env, place, "UASKER", asked.ts, "cancel", 2);
    expect(await outcome(place, asked.ts)).toBe("❌ Cancelled by <@UASKER>");
    await press(env, place, "UASKER", asked.ts, "approve");
    await settle(1_500);
    const [, cancelled, ...more] = await botMessages(place);
    expect(more).toEqual([]);
    expect(cancelled!.text).toMatch(/^❌ Cancelled: create_ticket was not run/);
    expect(await createCalls(`Cancelled by button ${place.channel}`)).toEqual([]);
  });

  it("refuses a bad signature (401) and a body that is not Slack's (400); ignores another interaction", async () => {
    const place = newSlackPlace("BUTTONBAD");
    const body = pressBody(place, "UASKER", distinctSlackTs(), "approve");
    expect((await callWorker(env, await signedSlackInteraction(body, "not-the-secret"))).status).toBe(401);
    expect((await callWorker(env, await signedSlackInteraction("payload=%7Bnot-json"))).status).toBe(400);
    expect((await callWorker(env, await signedSlackInteraction("nothing=here"))).status).toBe(400);
    const shortcut = new URLSearchParams({ payload: JSON.stringify({ type: "shortcut", callback_id: "x" }) });
    expect((await callWorker(env, await signedSlackInteraction(shortcut.toString()))).status).toBe(200);
  });
});

describe("a confirm tool's buttons at production timing", () => {
  const kit = prodTimingSuite("buttonstiming", toolSettings(TOOLS));
  pumpJobsDuringSuite(kit.env, "buttonstiming");

  it("gives way to the expiry, and a press after it is told so and runs nothing", async () => {
    const place = newSlackPlace("BUTTONLATE");
    await ask(kit.env, place, `create_ticket {"title": "Pressed too late ${place.channel}"}`);
    await kit.deliveriesSettled();
    const asked = await question(place);
    await kit.timePasses(15 * 60_000 + 10_000);
    expect(await outcome(place, asked.ts)).toBe("⌛ Nobody approved this in time: nothing was run.");
    await press(kit.env, place, "UASKER", asked.ts, "approve");
    expect(await ephemerals(place, "UASKER")).toEqual(["This question is settled: its outcome is on it."]);
    await kit.deliveriesSettled();
    await kit.timePasses(60_000);
    await settle(1_000);
    expect(await botMessages(place)).toHaveLength(2);
    expect(await createCalls(`Pressed too late ${place.channel}`)).toEqual([]);
  });
});
