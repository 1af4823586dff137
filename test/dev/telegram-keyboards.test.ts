/**
 * @module
 * Inline keyboards on the Telegram fake, as the Bot API takes them (dev/fakes/telegram/keyboards.ts): `callback_data`
 * of 1-64 bytes (BUTTON_DATA_INVALID otherwise), a keyboard kept until an edit without one, a press (`POST /__press`)
 * of a button the message shows only, its query answered once and only if the fake issued it.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTelegramFake, TELEGRAM_FAKE_BOT, type RunningTelegramFake } from "../../dev/fakes/telegram.ts";

let tg: RunningTelegramFake;
beforeAll(async () => {
  tg = await startTelegramFake({ port: 0 });
});
afterAll(() => tg.close());
beforeEach(() => fetch(`${tg.url}/__reset`, { method: "POST" }));

const CHAT = -1002;
const alice = { id: 21, first_name: "Alice" };
async function api(method: string, args: Record<string, unknown>) {
  const res = await fetch(`${tg.url}/bot${TELEGRAM_FAKE_BOT.token}/${method}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(args),
  });
  return { status: res.status, body: (await res.json()) as { ok: boolean; description?: string; result?: unknown } };
}
const keyboard = (...data: string[]) => ({ inline_keyboard: [data.map((d) => ({ text: "Go", callback_data: d }))] });
const press = (messageId: number, data: string) =>
  fetch(`${tg.url}/__press`, {
    method: "POST",
    body: JSON.stringify({ chat_id: CHAT, message_id: messageId, from: alice, data, deliver: false }),
  });

async function question(): Promise<number> {
  await fetch(`${tg.url}/__chat`, { method: "POST", body: JSON.stringify({ id: CHAT, type: "supergroup" }) });
  const sent = await api("sendMessage", { chat_id: CHAT, text: "May I?", reply_markup: keyboard("a:approve") });
  return (sent.body.result as { message_id: number }).message_id;
}

describe("inline keyboards", () => {
  it("refuse callback_data of 0 or 65 bytes, and take 64 (in UTF-8 bytes, not characters)", async () => {
    const id = await question();
    for (const data of ["", "x".repeat(65), "é".repeat(33)])
      expect(
        await api("editMessageReplyMarkup", { chat_id: CHAT, message_id: id, reply_markup: keyboard(data) }),
      ).toMatchObject({ status: 400, body: { description: "Bad Request: BUTTON_DATA_INVALID" } });
    const ok = await api("editMessageReplyMarkup", {
      chat_id: CHAT,
      message_id: id,
      reply_markup: keyboard("é".repeat(32)),
    });
    expect(ok.status).toBe(200);
  });

  it("stay until an edit of the text without one", async () => {
    const id = await question();
    await api("editMessageText", { chat_id: CHAT, message_id: id, text: "Approved" });
    const [shown] = (await (await fetch(`${tg.url}/__messages?chat_id=${CHAT}`)).json()) as {
      reply_markup?: unknown;
    }[];
    expect(shown!.reply_markup).toBeUndefined();
    expect((await press(id, "a:approve")).status).toBe(400);
  });
});

describe("a press", () => {
  it("is answered once, and an id the fake never issued is refused", async () => {
    const id = await question();
    expect((await press(id, "a:other")).status).toBe(400);
    const { callback_query_id } = (await (await press(id, "a:approve")).json()) as { callback_query_id: string };
    const tooOld = "Bad Request: query is too old and response timeout expired or query ID is invalid";
    expect(await api("answerCallbackQuery", { callback_query_id: "12345" })).toMatchObject({
      status: 400,
      body: { description: tooOld },
    });
    expect((await api("answerCallbackQuery", { callback_query_id, text: "Only Alice", show_alert: true })).status).toBe(
      200,
    );
    expect(await api("answerCallbackQuery", { callback_query_id })).toMatchObject({
      status: 400,
      body: { description: tooOld },
    });
  });
});
