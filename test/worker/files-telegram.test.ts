/**
 * @module
 * Pictures and files sent to the bot on Telegram, over the Telegram fake: a photo with a caption is answered from
 * the photo (fetched with getFile and the file's download path, with the bot's token), a photo alone is answered,
 * and a text document is read into the data block.
 */
import { describe, expect, it } from "vitest";
import { base64Text, telegramFile } from "../support/files.ts";
import { dataBlockRecords, modelRequests } from "../support/model.ts";
import { chatMessages, deliver, newChat, newPerson, say, telegramSuiteEnv } from "../support/telegram.ts";
import { eventually, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "filestg";
const env = telegramSuiteEnv(SUITE, { MEMORY_ENABLED: "false" });
pumpJobsDuringSuite(env, SUITE);

async function send(chat: number, from: ReturnType<typeof newPerson>, caption: string, media: unknown): Promise<void> {
  const { update } = await say(chat, from, caption, { media });
  expect((await deliver(env, update)).status).toBe(200);
}

const answers = (chat: number, n: number) =>
  eventually(
    async () => ((await chatMessages(chat)).length >= n ? chatMessages(chat) : undefined),
    20_000,
    `${n} answers`,
  );

describe("pictures and files sent on Telegram", () => {
  it("answers a photo with a caption from the photo, and a photo alone", async () => {
    const erin = newPerson("Erin");
    const chat = await newChat({ privateWith: erin });
    await send(
      chat,
      erin,
      `what's this error? tgphoto-${chat}`,
      await telegramFile({ name: "shot.png", png: { width: 160, height: 120, colour: "#dc1e1e" } }),
    );
    expect((await answers(chat, 1))[0]!.text).toContain("PNG picture, 160×120, mostly red");
    await send(
      chat,
      erin,
      "",
      await telegramFile({ name: "meal.png", png: { width: 80, height: 80, colour: "#1eaa3c" } }),
    );
    expect((await answers(chat, 2))[1]!.text).toContain("PNG picture, 80×80, mostly green");
  });

  it("reads a text document into the data block", async () => {
    const finn = newPerson("Finn");
    const chat = await newChat({ privateWith: finn });
    const notes = await telegramFile({
      name: "notes.md",
      type: "text/markdown",
      base64: base64Text(`# Plan\nship on friday tgdoc-${chat}\n`),
    });
    await send(chat, finn, `summarise this please tgask-${chat}`, notes);
    await answers(chat, 1);
    const [request] = await modelRequests(`tgask-${chat}`);
    expect(dataBlockRecords(request!)).toContainEqual({
      file: { name: "notes.md", from: "Finn", text: `# Plan\nship on friday tgdoc-${chat}\n` },
    });
  });
});
