/**
 * A tool call's Idempotency-Key names its place (found by bench:chaos, docs/benchmarks.md#tools-under-faults): a
 * Telegram message id counts up per chat, so the first message of two private chats has the same id, and a key of
 * the trigger's id alone made the second person's lookup look like a repeat of the first's (an endpoint that drops
 * repeats would have answered them with the other person's result).
 */
import { describe, expect, it } from "vitest";
import { toolServerCalls, toolSettings } from "../support/tools.ts";
import { chatMessages, deliver, newChat, newPerson, say, telegramSuiteEnv } from "../support/telegram.ts";
import { eventually, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "toolkey";
const env = telegramSuiteEnv(SUITE, { ...toolSettings("lookup_ticket"), MEMORY_ENABLED: "false" });
pumpJobsDuringSuite(env, SUITE);

describe("a tool call's idempotency key", () => {
  it("differs between two chats whose triggers have the same message id", async () => {
    const chats = [];
    for (const name of ["Ana", "Ben"]) {
      const person = newPerson(name);
      const chat = await newChat({ privateWith: person });
      const { messageId, update } = await say(chat, person, 'lookup_ticket {"id": "42"}');
      expect(messageId).toBe(1);
      expect((await deliver(env, update)).status).toBe(200);
      chats.push(chat);
    }
    for (const chat of chats)
      await eventually(
        async () => (await chatMessages(chat)).some((m) => m.text.includes("Printer on 3rd floor jammed")),
        20_000,
        `chat ${chat}'s answer`,
      );
    const { byKey } = await toolServerCalls();
    const keys = chats.map((chat) => Object.keys(byKey).filter((key) => key.includes(`|${chat}|`)));
    expect(keys.map((k) => k.length)).toEqual([1, 1]);
    expect(keys[0]![0]).not.toBe(keys[1]![0]);
    expect(keys.map((k) => byKey[k[0]!])).toEqual([1, 1]);
  });
});
