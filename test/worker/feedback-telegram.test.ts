/**
 * @module
 * Feedback on answers on Telegram (docs/tools.md, "Feedback on answers"; docs/platforms/telegram.md): Telegram has
 * no `/parley`, so TELEGRAM_FEEDBACK turns it on for every chat of the bot (off by default). The answer's last
 * message gets an inline keyboard of 👍 and 👎 by editMessageReplyMarkup, never a new message; a press is a
 * `callback_query` update, always answered with answerCallbackQuery; it is recorded once per person and answer
 * (a double click and Telegram's redelivery count once) and counted per place in the admin view.
 */
import { describe, expect, it } from "vitest";
import {
  BOT,
  chatMessages,
  deliver,
  newChat,
  newPerson,
  type Person,
  pressButton,
  say,
  telegramSuiteEnv,
} from "../support/telegram.ts";
import { callWorker, eventually, pumpJobsDuringSuite, settle, type TestEnv } from "../support/worker.ts";

const ADMIN_TOKEN = "admin-token-for-telegram-feedback-0123456789";
const on = telegramSuiteEnv("feedbacktg", { TELEGRAM_FEEDBACK: "on", ADMIN_TOKEN });
const off = telegramSuiteEnv("feedbacktgoff");
pumpJobsDuringSuite(on, "feedbacktg", { deliverEach: 2 });
pumpJobsDuringSuite(off, "feedbacktgoff");

async function ask(testEnv: TestEnv, alice: Person): Promise<number> {
  const chatId = await newChat({ group: {} });
  const { update } = await say(chatId, alice, `@${BOT.username} how should I store loose tea?`);
  expect((await deliver(testEnv, update)).status).toBe(200);
  return chatId;
}

async function admin(key: string) {
  const res = await callWorker(
    on,
    new Request(`https://bot.test/admin/conversations/${encodeURIComponent(key)}`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "CF-Connecting-IP": "192.0.2.39" },
    }),
  );
  return ((await res.json()) as { feedback: { up: number; down: number; not_you: number } }).feedback;
}

describe("feedback on Telegram answers", () => {
  it("puts 👍 / 👎 on the answer where TELEGRAM_FEEDBACK is on; a press counts once however often it comes", async () => {
    const alice = newPerson("Alice");
    const chatId = await ask(on, alice);
    const answer = await eventually(
      async () => (await chatMessages(chatId)).find((m) => m.reply_markup),
      20_000,
      "the answer with its feedback keyboard",
    );
    expect(answer.reply_markup!.inline_keyboard).toEqual([
      [
        { text: "👍", callback_data: "parley_feedback:up:p" },
        { text: "👎", callback_data: "parley_feedback:down:p" },
      ],
    ]);
    const bob = newPerson("Bob");
    const up = await pressButton(chatId, answer.message_id, alice, "parley_feedback:up:p");
    for (let i = 0; i < 2; i++) expect((await deliver(on, up)).status).toBe(200);
    await pressButton(chatId, answer.message_id, alice, "parley_feedback:up:p").then((u) => deliver(on, u));
    await pressButton(chatId, answer.message_id, bob, "parley_feedback:down:p").then((u) => deliver(on, u));
    const tenant = `${BOT.id}:${chatId}`;
    expect(await admin(`telegram|${tenant}|${chatId}|`)).toEqual({ up: 1, down: 1, not_you: 0 });
    expect(await chatMessages(chatId)).toHaveLength(1);
  });

  it("puts none where it is off (the default)", async () => {
    const chatId = await ask(off, newPerson("Alice"));
    await eventually(async () => (await chatMessages(chatId))[0], 20_000, "the answer");
    await settle(2_000);
    const [answer] = await chatMessages(chatId);
    expect(answer!.reply_markup).toBeUndefined();
  });
});
