/**
 * Approval with buttons on Telegram (docs/tools.md, docs/platforms/telegram.md): a bot reads no ✅ or ❌ there, so
 * the confirm tool's question is answered by its inline keyboard alone, Approve and Cancel, put on by
 * editMessageReplyMarkup once the approval is open. A press is a `callback_query` update on POST /telegram/webhook
 * (with the secret header, as every update), always answered with answerCallbackQuery: nothing to say for the
 * asker's press, which decides it through the same script as a reaction elsewhere and runs the call exactly once at
 * the tool server (counted by idempotency key) however often it comes (a double click, Telegram's redelivery of the
 * same update); an alert for anyone else's, which changes nothing. The keyboard gives way to the outcome on the
 * question itself (editMessageText). Every job is delivered twice at once.
 */
import { describe, expect, it } from "vitest";
import { prodTimingSuite } from "../support/prod-timing.ts";
import {
  botCalls,
  BOT,
  chatMessages,
  deliver,
  newChat,
  newPerson,
  pressButton,
  say,
  telegramRequest,
  TELEGRAM_SECRET,
  telegramSuiteEnv,
  type Person,
} from "../support/telegram.ts";
import { createCalls, toolServerCalls, toolSettings } from "../support/tools.ts";
import { callWorker, eventually, pumpJobsDuringSuite, settle, type TestEnv } from "../support/worker.ts";

const TOOLS = toolSettings("lookup_ticket,create_ticket");
const env = telegramSuiteEnv("buttonstelegram", TOOLS);
pumpJobsDuringSuite(env, "buttonstelegram", { deliverEach: 2 });
const APPROVE = "parley_approval:approve";
const CANCEL = "parley_approval:cancel";

/** `alice` asks the bot in a new group to create a ticket titled `title`; the chat. */
async function ask(testEnv: TestEnv, alice: Person, title: string): Promise<number> {
  const chatId = await newChat({ group: {} });
  const { update } = await say(chatId, alice, `@${BOT.username} create_ticket {"title": "${title}"}`);
  expect((await deliver(testEnv, update)).status).toBe(200);
  return chatId;
}

/** The question, once its keyboard is on. */
const question = (chatId: number) =>
  eventually(
    async () => (await chatMessages(chatId)).find((m) => m.reply_markup),
    15_000,
    "the question with its keyboard",
  );

/** The line that replaced the keyboard. */
const outcome = (chatId: number, messageId: number) =>
  eventually(
    async () => {
      const asked = (await chatMessages(chatId)).find((m) => m.message_id === messageId);
      return asked && !asked.reply_markup && asked.text.split("\n").at(-1);
    },
    15_000,
    "the outcome on the question",
  );

/** The presses' answers the fake recorded, in order. */
const answers = async (chatId: number) =>
  (await botCalls(chatId, "answerCallbackQuery")).map((c) => ({ text: c.text, show_alert: c.show_alert }));

async function press(testEnv: TestEnv, chatId: number, messageId: number, who: Person, data: string, times = 1) {
  const update = await pressButton(chatId, messageId, who, data);
  for (let i = 0; i < times; i++) expect((await deliver(testEnv, update)).status).toBe(200);
}

describe("a confirm tool's buttons on Telegram", () => {
  it("shows Approve and Cancel; runs the call once on the asker's press, never on a stranger's", async () => {
    const alice = newPerson("Alice");
    const title = `Telegram buttons ${alice.id}`;
    const chatId = await ask(env, alice, title);
    const asked = await question(chatId);
    expect(asked.text).toContain("⚠️ Approval needed: may I run create_ticket");
    expect(asked.text).toContain("The person who asked can press Approve or Cancel, within 15 minutes.");
    expect(asked.reply_markup!.inline_keyboard).toEqual([
      [
        { text: "Approve", callback_data: APPROVE },
        { text: "Cancel", callback_data: CANCEL },
      ],
    ]);

    await press(env, chatId, asked.message_id, newPerson("Bob"), APPROVE);
    expect(await answers(chatId)).toEqual([{ text: "Only Alice can approve this.", show_alert: true }]);
    await settle(1_500);
    expect(await chatMessages(chatId)).toHaveLength(1);
    expect(await createCalls(title)).toEqual([]);

    // A double click (two presses), the second delivered twice by Telegram.
    await press(env, chatId, asked.message_id, alice, APPROVE);
    await press(env, chatId, asked.message_id, alice, APPROVE, 2);
    expect(await outcome(chatId, asked.message_id)).toBe("✅ Approved by Alice — running…");
    const done = await eventually(async () => (await chatMessages(chatId))[1], 15_000, "the result");
    expect(done.text).toMatch(/^✅ Done: create_ticket: Created ticket/);
    await settle(1_500);
    expect(await chatMessages(chatId)).toHaveLength(2);
    expect(await createCalls(title)).toEqual([1]);
    const [key] = Object.entries((await toolServerCalls()).createTitles).find(([, t]) => t === title)!;
    expect((await toolServerCalls()).byKey[key]).toBe(1);
    // Every press was answered once (the redelivery's second answer refused by Telegram changes nothing).
    const [, decided, repeat] = await answers(chatId);
    expect(decided).toEqual({ text: undefined, show_alert: false });
    expect(repeat!.text).toMatch(/^This (was already approved|question is settled)/);
  });

  it("cancels on the asker's Cancel, once, and never calls the tool", async () => {
    const alice = newPerson("Alice");
    const title = `Telegram cancelled ${alice.id}`;
    const chatId = await ask(env, alice, title);
    const asked = await question(chatId);
    await press(env, chatId, asked.message_id, alice, CANCEL, 2);
    expect(await outcome(chatId, asked.message_id)).toBe("❌ Cancelled by Alice");
    const cancelled = await eventually(async () => (await chatMessages(chatId))[1], 15_000, "the cancellation");
    expect(cancelled.text).toMatch(/^❌ Cancelled: create_ticket was not run/);
    await settle(1_500);
    expect(await chatMessages(chatId)).toHaveLength(2);
    expect(await createCalls(title)).toEqual([]);
  });

  it("puts the keyboard on a private chat's question too (its answer shown as a draft first)", async () => {
    const alice = newPerson("Alice");
    const title = `Telegram private buttons ${alice.id}`;
    const chatId = await newChat({ privateWith: alice });
    const { update } = await say(chatId, alice, `create_ticket {"title": "${title}"}`);
    expect((await deliver(env, update)).status).toBe(200);
    const asked = await question(chatId);
    await press(env, chatId, asked.message_id, alice, APPROVE);
    expect(await outcome(chatId, asked.message_id)).toBe("✅ Approved by Alice — running…");
    await eventually(async () => (await chatMessages(chatId)).length === 2, 15_000, "the result");
    expect(await createCalls(title)).toEqual([1]);
    expect(await answers(chatId)).toEqual([{ text: undefined, show_alert: false }]);
  });

  it("refuses a delivery without the secret (401) and a press that is not Telegram's shape (400)", async () => {
    const update = { update_id: 1, callback_query: { id: "1", chat_instance: "1", data: APPROVE } };
    expect((await callWorker(env, telegramRequest(update, "not-the-secret"))).status).toBe(401);
    expect((await callWorker(env, telegramRequest(update))).status).toBe(400);
  });
});

describe("a confirm tool's buttons on Telegram at production timing", () => {
  const kit = prodTimingSuite("buttonstelegramtiming", {
    ...TOOLS,
    TELEGRAM_BOT_TOKEN: BOT.token,
    TELEGRAM_WEBHOOK_SECRET: TELEGRAM_SECRET,
    TELEGRAM_BOT_USERNAME: BOT.username,
  });
  pumpJobsDuringSuite(kit.env, "buttonstelegramtiming");

  it("gives way to the expiry, and a press that arrives after it is told so and runs nothing", async () => {
    const alice = newPerson("Alice");
    const title = `Telegram too late ${alice.id}`;
    const chatId = await ask(kit.env, alice, title);
    await kit.deliveriesSettled();
    const asked = await question(chatId);
    // Pressed while the keyboard showed (a client that had not yet seen the outcome), delivered after the expiry.
    const late = await pressButton(chatId, asked.message_id, alice, APPROVE);
    await kit.timePasses(15 * 60_000 + 10_000);
    expect(await outcome(chatId, asked.message_id)).toBe("⌛ Nobody approved this in time: nothing was run.");
    const started = Date.now();
    expect((await deliver(kit.env, late)).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await answers(chatId)).toEqual([
      { text: "This question is settled: its outcome is on it.", show_alert: true },
    ]);
    await kit.deliveriesSettled();
    await kit.timePasses(60_000);
    await settle(1_000);
    expect(await chatMessages(chatId)).toHaveLength(2);
    expect(await createCalls(title)).toEqual([]);
  });
});
