/**
 * @module
 * The signs of work a person sees in the Slack fake: assistant thread status (cleared by a reply), suggested
 * prompts and title, reactions, and chat.update's limits.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSlack, type SlackHarness } from "./slack-client.ts";

let slack: SlackHarness;
beforeAll(async () => {
  slack = await startSlack();
});
afterAll(() => slack.close());
beforeEach(() => slack.control("/__reset", {}));

const THREAD = "1715000000.000200";
interface Thread {
  status: string;
  loading_messages: string[];
  title?: string;
  prompts?: unknown[];
  history: { status: string; by: string }[];
}
const threads = () => slack.control<Thread[]>(`/__assistant?thread_ts=${THREAD}`);

describe("assistant threads", () => {
  it("shows the status with its loading messages until the bot replies in the thread", async () => {
    const set = await slack.call(
      "assistant.threads.setStatus",
      {
        channel_id: "D0DM00001",
        thread_ts: THREAD,
        status: "is thinking…",
        loading_messages: ["Reading…", "Writing…"],
      },
      { form: true },
    );
    expect(set.body).toEqual({ ok: true });
    expect((await threads())[0]).toMatchObject({ status: "is thinking…", loading_messages: ["Reading…", "Writing…"] });
    await slack.call("chat.postMessage", { channel: "D0DM00001", thread_ts: THREAD, text: "Here you go" });
    expect((await threads())[0]).toMatchObject({
      status: "",
      history: [
        { status: "is thinking…", by: "setStatus" },
        { status: "", by: "reply" },
      ],
    });
  });

  it("refuses more than 10 loading messages and a status without a thread", async () => {
    const eleven = Array.from({ length: 11 }, (_, i) => `step ${i}`);
    expect(
      (
        await slack.call("assistant.threads.setStatus", {
          channel_id: "D0DM00001",
          thread_ts: THREAD,
          status: "busy",
          loading_messages: eleven,
        })
      ).body.error,
    ).toBe("invalid_arguments");
    expect(
      (await slack.call("assistant.threads.setStatus", { channel_id: "D0DM00001", status: "busy" })).body.error,
    ).toBe("invalid_thread_ts");
  });

  it("keeps suggested prompts and the title where assistant:write is granted (the manifest asks for it)", async () => {
    const prompts = {
      channel_id: "D0DM00001",
      thread_ts: THREAD,
      prompts: [{ title: "Summarize", message: "Summarize the channel" }],
    };
    const { code } = await slack.control<{ code: string }>("/__install", { team_id: "T0ASSIST1", scope: "chat:write" });
    const token = (
      await slack.call(
        "oauth.v2.access",
        { code, client_id: "1111111111.2222222222", client_secret: "fake-slack-client-secret" },
        { token: "", form: true },
      )
    ).body.access_token as string;
    // An install from before the manifest asked for it: refused, naming the scope.
    expect((await slack.call("assistant.threads.setSuggestedPrompts", prompts, { token })).body).toMatchObject({
      error: "missing_scope",
      needed: "assistant:write",
    });
    expect((await slack.call("assistant.threads.setSuggestedPrompts", prompts)).body).toEqual({ ok: true });
    await slack.call("assistant.threads.setTitle", {
      channel_id: "D0DM00001",
      thread_ts: THREAD,
      title: "Deploy question",
    });
    expect((await threads())[0]).toMatchObject({
      title: "Deploy question",
      prompts: [{ title: "Summarize", message: "Summarize the channel" }],
    });
  });
});

describe("reactions", () => {
  it("adds a reaction once and removes it, with Slack's errors for the repeats", async () => {
    const { ts } = await slack.control<{ ts: string }>("/__messages", {
      channel: "C0CHAN001",
      user: "UALICE",
      text: "@Parley help",
    });
    const target = { channel: "C0CHAN001", timestamp: ts, name: "eyes" };
    expect((await slack.call("reactions.add", target)).body).toEqual({ ok: true });
    expect((await slack.call("reactions.add", target)).body.error).toBe("already_reacted");
    const [stored] = await slack.control<{ reactions: { name: string; users: string[] }[] }[]>(`/__messages?ts=${ts}`);
    expect(stored!.reactions).toEqual([{ name: "eyes", users: ["U0FAKEBOT"] }]);
    expect((await slack.call("reactions.remove", target)).body).toEqual({ ok: true });
    expect((await slack.call("reactions.remove", target)).body.error).toBe("no_reaction");
    expect((await slack.call("reactions.add", { channel: "C0CHAN001", name: "eyes" })).body.error).toBe(
      "no_item_specified",
    );
    expect((await slack.call("reactions.add", { ...target, name: ":eyes:" })).body.error).toBe("invalid_name");
  });
});

describe("chat.update", () => {
  it("edits the bot's own message up to 4,000 characters", async () => {
    const ts = (await slack.call("chat.postMessage", { channel: "C0CHAN001", text: "draft" })).body.ts;
    expect((await slack.call("chat.update", { channel: "C0CHAN001", ts, text: "x".repeat(4_001) })).body.error).toBe(
      "msg_too_long",
    );
    expect((await slack.call("chat.update", { channel: "C0CHAN001", ts, text: "final" })).body).toMatchObject({
      ok: true,
      text: "final",
      message: { text: "final", edited: { user: "U0FAKEBOT" } },
    });
    expect(
      (await slack.call("chat.update", { channel: "C0CHAN001", ts: "1715000000.999999", text: "x" })).body.error,
    ).toBe("message_not_found");
  });

  it("cannot edit a person's message", async () => {
    const { ts } = await slack.control<{ ts: string }>("/__messages", {
      channel: "C0CHAN001",
      user: "UALICE",
      text: "mine",
    });
    expect((await slack.call("chat.update", { channel: "C0CHAN001", ts, text: "x" })).body.error).toBe(
      "cant_update_message",
    );
  });
});
