/**
 * @module
 * Stop on a Telegram answer as it is written (docs/platforms/telegram.md, "Stop"): in a group, the answer posted as
 * a reply to its trigger and edited as it grows (every three seconds at most, production timing) carries a Stop
 * button (an inline keyboard) on each progress edit. A press is a `callback_query` update, always answered with
 * answerCallbackQuery: the asker's (whose message the answer replies to: Telegram says so, where a bad client could
 * send any `callback_data`) ends the answer within one more edit, the message keeping what was written with
 * "(stopped by …)" and its keyboard gone; a double click and Telegram's redelivery stop nothing more; anyone else's
 * press gets an alert saying who can, and changes nothing.
 */
import { describe, expect, it } from "vitest";
import {
  BOT,
  botCalls,
  chatMessages,
  deliver,
  newChat,
  newPerson,
  type Person,
  type SeenMessage,
  pressButton,
  say,
  telegramSuiteEnv,
} from "../support/telegram.ts";
import { eventually, pumpJobsDuringSuite, settle } from "../support/worker.ts";

const env = telegramSuiteEnv("telegramstop", { STREAMING: "true" });
pumpJobsDuringSuite(env, "telegramstop");
const STOP = "parley_stop";
/** About twenty seconds of answer. */
const PACE = "[[local-model tokens=800 tps=40 first_ms=100]]";

async function ask(alice: Person): Promise<{ chatId: number; growing: SeenMessage }> {
  const chatId = await newChat({ group: {} });
  const { update } = await say(chatId, alice, `@${BOT.username} tell me about rollbacks ${PACE}`);
  expect((await deliver(env, update)).status).toBe(200);
  const growing = await eventually(
    async () => (await chatMessages(chatId)).find((m) => m.reply_markup),
    20_000,
    "the answer with its Stop button",
  );
  return { chatId, growing };
}

async function press(chatId: number, messageId: number, who: Person, times = 1) {
  const update = await pressButton(chatId, messageId, who, STOP);
  for (let i = 0; i < times; i++) expect((await deliver(env, update)).status).toBe(200);
}

const finished = (chatId: number) =>
  eventually(
    async () => {
      const [m] = await chatMessages(chatId);
      return m && !m.reply_markup && m;
    },
    40_000,
    "the finished answer",
  );

const answers = async (chatId: number) =>
  (await botCalls(chatId, "answerCallbackQuery")).map((c) => ({ text: c.text, show_alert: c.show_alert }));

describe("Stop on a Telegram group answer as it is written", () => {
  it("ends it once when the asker presses it, however often, and the keyboard goes", async () => {
    const alice = newPerson("Alice");
    const { chatId, growing } = await ask(alice);
    expect(growing.reply_markup!.inline_keyboard).toEqual([[{ text: "Stop", callback_data: STOP }]]);
    // A double click, the second delivered twice by Telegram.
    await press(chatId, growing.message_id, alice);
    await press(chatId, growing.message_id, alice, 2);
    const done = await finished(chatId);
    expect(done.text).toMatch(/\(stopped by Alice\)\s*$/);
    expect(done.text.length).toBeLessThan(2_500);
    await settle(3_500);
    expect(await chatMessages(chatId)).toEqual([done]);
    // The presses that reached the bot were answered with nothing to say.
    const [first] = await answers(chatId);
    expect(first).toEqual({ text: undefined, show_alert: false });
  });

  it("changes nothing when someone else presses it, and tells them who can", async () => {
    const alice = newPerson("Alice");
    const { chatId, growing } = await ask(alice);
    await press(chatId, growing.message_id, newPerson("Bob"));
    expect(await answers(chatId)).toEqual([{ text: "Only Alice can stop this answer.", show_alert: true }]);
    const done = await finished(chatId);
    expect(done.text).not.toContain("stopped by");
  });
});
