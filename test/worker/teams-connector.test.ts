/**
 * @module
 * What the bot does with the Bot Connector beyond posting (issue #39): "typing" while it works, a token the Connector
 * stops taking before its hour (401), forgotten so that the next attempt buys another from the identity platform and
 * the answer still arrives once, and a picture pasted into a message, fetched with the bot's token for the model.
 */
import { describe, expect, it } from "vitest";
import { modelRequests } from "../support/model.ts";
import {
  botMessages,
  deliver,
  newConversation,
  newPerson,
  pastedImage,
  say,
  teamsControl,
  teamsSuiteEnv,
} from "../support/teams.ts";
import { eventually, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "teamsconn";
const env = teamsSuiteEnv(SUITE, { SHOW_WORKING: "true" });

pumpJobsDuringSuite(env, SUITE);

const answered = (chat: string) =>
  eventually(
    async () => {
      const posted = await botMessages(chat);
      return posted.length > 0 ? posted : undefined;
    },
    20_000,
    "the answer posted",
  );

describe("the bot on the Bot Connector", () => {
  it("shows typing in the chat before its answer", async () => {
    const chat = await newConversation("personal");
    const hello = await say(chat, newPerson("Heidi"), "what is our release checklist?");
    await deliver(env, hello.delivery);
    const [answer] = await answered(chat);
    const typing = await teamsControl<{ at?: number }[]>(
      `/__calls?route=${encodeURIComponent("send typing")}&conversation=${encodeURIComponent(chat)}`,
    );
    expect(typing.length).toBeGreaterThan(0);
    expect(answer).toBeDefined();
  });

  it("buys a new token once the Connector refuses the kept one, and answers once", async () => {
    const chat = await newConversation("personal");
    const first = await say(chat, newPerson("Ivan"), "what is the wifi password policy?");
    await deliver(env, first.delivery);
    await answered(chat);
    const before = (await teamsControl<{ tokenExchanges: number }>("/__stats")).tokenExchanges;
    expect(await teamsControl("/__expire-tokens", { conversation: chat })).toEqual({ expired: 1 });
    const again = await newConversation("personal");
    const second = await say(again, newPerson("Judy"), "where is the holiday calendar?");
    await deliver(env, second.delivery);
    expect(await answered(again)).toHaveLength(1);
    expect((await teamsControl<{ tokenExchanges: number }>("/__stats")).tokenExchanges).toBeGreaterThan(before);
  });

  it("reads a picture pasted into the message with the bot's token, and answers about it", async () => {
    const chat = await newConversation("personal");
    const image = await pastedImage({
      name: "chart.png",
      type: "image/png",
      png: { width: 40, height: 30, colour: "#dc1e1e" },
    });
    const asked = await say(chat, newPerson("Ken"), "what colour is this chart?", { attachments: [image] });
    await deliver(env, asked.delivery);
    await answered(chat);
    const [prompt] = await modelRequests("what colour is this chart?");
    expect(JSON.stringify(prompt!.messages)).toContain("data:image/png;base64,");
  });
});
