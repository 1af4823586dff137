/**
 * Approval with buttons on Microsoft Teams (docs/tools.md, docs/platforms/teams.md): Parley reads no reactions on
 * Teams, so the confirm tool's question is answered by the buttons of its Adaptive Card alone, Approve and Cancel
 * (`Action.Execute`, card version 1.5), put on by replacing the question's activity once the approval is open. A
 * click is an `adaptiveCard/action` invoke on POST /teams/messages (signed as every activity), answered in the HTTP
 * response: for the asker's click, which decides it through the same script as a press elsewhere and runs the call
 * exactly once at the tool server however often it comes (a double click, a redelivery), the card of the outcome in
 * place of the buttons; for anyone else's, a message only they see, which changes nothing. The fake's Teams does
 * with each answer what Teams does; a click delivered after the expiry (production timing) is told so and runs
 * nothing. Every job is delivered twice.
 */
import { describe, expect, it } from "vitest";
import {
  answerInvoke,
  botMessages,
  click,
  deliver,
  newConversation,
  newPerson,
  say,
  TEAMS_ON,
  teamsSuiteEnv,
  type BotActivity,
  type ConversationType,
  type Delivery,
  type Person,
} from "../support/teams.ts";
import { prodTimingSuite } from "../support/prod-timing.ts";
import { createCalls, toolSettings } from "../support/tools.ts";
import { eventually, pumpJobsDuringSuite, settle, type TestEnv } from "../support/worker.ts";

const SUITE = "buttonsteams";
const TOOLS = toolSettings("lookup_ticket,create_ticket");
const env = teamsSuiteEnv(SUITE, TOOLS);
pumpJobsDuringSuite(env, SUITE, { deliverEach: 2 });

/** `alice` asks the bot in a new conversation of `type` to create a ticket titled `title`; the chat. */
async function ask(type: ConversationType, alice: Person, title: string, testEnv: TestEnv = env): Promise<string> {
  const chat = await newConversation(type);
  const said = await say(chat, alice, `create_ticket {"title": "${title}"}`, { mention: type !== "personal" });
  expect((await deliver(testEnv, said.delivery)).status).toBe(200);
  return chat;
}

/** The question, once its card has buttons. */
const question = (chat: string) =>
  eventually(
    async () => (await botMessages(chat)).find((m) => m.cards?.some((c) => c.actions?.length)),
    15_000,
    "the question with its buttons",
  );

/** The text of the card on the question once its buttons are gone. */
const outcome = (chat: string, id: string) =>
  eventually(
    async () => {
      const card = (await botMessages(chat)).find((m) => m.id === id)?.cards?.[0];
      return card && !card.actions?.length && String(card.body?.[0]?.text);
    },
    15_000,
    "the outcome on the question",
  );

/** Delivers the click `times` times; the Worker's answers (AdaptiveCardInvokeResponse), the first handed to Teams. */
async function delivered(asked: BotActivity, invoke: Delivery, times = 1) {
  const answers = [];
  for (let i = 0; i < times; i++) {
    const res = await deliver(env, invoke);
    expect(res.status).toBe(200);
    if (i === 0) expect(await answerInvoke(asked.id, res)).not.toHaveProperty("refused");
    answers.push((await res.json()) as { statusCode: number; type: string; value: unknown });
  }
  return answers;
}

const press = async (chat: string, asked: BotActivity, who: Person, control: string, times = 1) =>
  delivered(asked, await click(chat, asked.id, who, control), times);

describe("a confirm tool's buttons on Teams", () => {
  it("shows Approve and Cancel; runs the call once on the asker's click, never on a stranger's", async () => {
    const alice = newPerson("Alice");
    const title = `Teams buttons ${alice.id}`;
    const chat = await ask("channel", alice, title);
    const asked = await question(chat);
    expect(asked.text).toContain("Approval needed: may I run create_ticket");
    expect(asked.text).toContain("The person who asked can press Approve or Cancel, within 15 minutes.");
    expect(asked.cards![0]!.version).toBe("1.5");
    expect(asked.cards![0]!.actions).toEqual([
      expect.objectContaining({ type: "Action.Execute", title: "Approve", data: { control: "approve" } }),
      expect.objectContaining({ type: "Action.Execute", title: "Cancel", data: { control: "cancel" } }),
    ]);

    const bob = newPerson("Bob");
    const [toBob] = await press(chat, asked, bob, "approve");
    expect(toBob).toEqual({
      statusCode: 200,
      type: "application/vnd.microsoft.activity.message",
      value: "Only the person who asked can approve this.",
    });
    await settle(1_500);
    expect(await botMessages(chat)).toHaveLength(1);
    expect((await question(chat)).cards![0]!.actions).toHaveLength(2);
    expect(await createCalls(title)).toEqual([]);

    // A double click (two before the first's answer took the buttons away), the second delivered twice.
    const first = await click(chat, asked.id, alice, "approve");
    const second = await click(chat, asked.id, alice, "approve");
    const [decided] = await delivered(asked, first);
    const approved = `✅ Approved by ${alice.name} — running…`;
    expect(decided).toEqual({
      statusCode: 200,
      type: "application/vnd.microsoft.card.adaptive",
      value: expect.objectContaining({ version: "1.5", body: [{ type: "TextBlock", text: approved, wrap: true }] }),
    });
    const repeats = await delivered(asked, second, 2);
    for (const repeat of repeats) expect(repeat.value).toMatch(/^This (was already approved|question is settled)/);
    expect(await outcome(chat, asked.id)).toBe(approved);
    const done = await eventually(async () => (await botMessages(chat))[1], 15_000, "the result");
    expect(done.text).toMatch(/^✅ Done: create_ticket: Created ticket/);
    await settle(1_500);
    expect(await botMessages(chat)).toHaveLength(2);
    expect(await createCalls(title)).toEqual([1]);
  });

  it("cancels on the asker's Cancel in a 1:1 chat, once, and never calls the tool", async () => {
    const alice = newPerson("Alice");
    const title = `Teams cancelled ${alice.id}`;
    const chat = await ask("personal", alice, title);
    const asked = await question(chat);
    await press(chat, asked, alice, "cancel", 2);
    expect(await outcome(chat, asked.id)).toBe(`❌ Cancelled by ${alice.name}`);
    const cancelled = await eventually(async () => (await botMessages(chat))[1], 15_000, "the cancellation");
    expect(cancelled.text).toMatch(/^❌ Cancelled: create_ticket was not run/);
    await settle(1_500);
    expect(await botMessages(chat)).toHaveLength(2);
    expect(await createCalls(title)).toEqual([]);
  });
});

describe("a confirm tool's buttons on Teams at production timing", () => {
  const kit = prodTimingSuite("buttonsteamstiming", { ...TEAMS_ON, ...TOOLS });
  pumpJobsDuringSuite(kit.env, "buttonsteamstiming");

  it("gives way to the expiry, and a click that arrives after it is told so and runs nothing", async () => {
    const alice = newPerson("Alice");
    const title = `Teams too late ${alice.id}`;
    const chat = await ask("groupChat", alice, title, kit.env);
    await kit.deliveriesSettled();
    const asked = await question(chat);
    // Clicked while the buttons showed (a client that had not yet seen the outcome), delivered after the expiry.
    const late = await click(chat, asked.id, alice, "approve");
    await kit.timePasses(15 * 60_000 + 10_000);
    expect(await outcome(chat, asked.id)).toBe("⌛ Nobody approved this in time: nothing was run.");
    const started = Date.now();
    const res = await deliver(kit.env, late);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await res.json()).toEqual({
      statusCode: 200,
      type: "application/vnd.microsoft.activity.message",
      value: "This question is settled: its outcome is on it.",
    });
    await kit.deliveriesSettled();
    await kit.timePasses(60_000);
    await settle(1_000);
    expect(await botMessages(chat)).toHaveLength(2);
    expect(await createCalls(title)).toEqual([]);
  });
});
