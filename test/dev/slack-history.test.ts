/**
 * @module
 * What a retry can look up in the Slack fake: a post's metadata, a channel's history and a thread's replies with
 * the parent first, filtered and paged as Slack does.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSlack, type SlackHarness } from "./slack-client.ts";

let slack: SlackHarness;
beforeAll(async () => {
  slack = await startSlack();
});
afterAll(() => slack.close());
beforeEach(() => slack.control("/__reset", {}));

const metadata = (trigger: string) => ({ event_type: "parley_answer", event_payload: { trigger } });
type Message = { ts: string; text: string; user: string; metadata?: unknown; reply_count?: number };

describe("metadata, conversations.history and conversations.replies", () => {
  it("finds the earlier answer to a trigger by its metadata in the thread", async () => {
    const { ts: parent } = await slack.control<{ ts: string }>("/__messages", {
      channel: "C0CHAN001",
      user: "UALICE",
      text: "@Parley how?",
    });
    const posted = await slack.call("chat.postMessage", {
      channel: "C0CHAN001",
      thread_ts: parent,
      text: "Like this.",
      metadata: metadata("Ev1"),
    });
    expect(posted.body).toMatchObject({ ok: true, message: { metadata: metadata("Ev1") } });
    const replies = await slack.call("conversations.replies", {
      channel: "C0CHAN001",
      ts: parent,
      include_all_metadata: true,
    });
    const messages = replies.body.messages as Message[];
    expect(messages.map((m) => m.text)).toEqual(["@Parley how?", "Like this."]);
    expect(messages[0]).toMatchObject({ user: "UALICE", reply_count: 1 });
    expect(messages[1]!.metadata).toEqual(metadata("Ev1"));
    const withoutMetadata = (await slack.call("conversations.replies", { channel: "C0CHAN001", ts: parent })).body
      .messages as Message[];
    expect(withoutMetadata[1]!.metadata).toBeUndefined();
  });

  it("takes metadata sent as a form field", async () => {
    await slack.call(
      "chat.postMessage",
      { channel: "C0CHAN001", text: "hi", metadata: metadata("Ev2") },
      { form: true },
    );
    const history = (
      await slack.call("conversations.history", { channel: "C0CHAN001", include_all_metadata: "true" }, { form: true })
    ).body;
    expect((history.messages as Message[])[0]!.metadata).toEqual(metadata("Ev2"));
    expect(
      (await slack.call("chat.postMessage", { channel: "C0CHAN001", text: "x", metadata: { event_type: "t" } })).body
        .error,
    ).toBe("invalid_metadata_schema");
  });

  it("lists top-level messages newest first between oldest and latest, in pages", async () => {
    const ts: string[] = [];
    for (const text of ["one", "two", "three", "four"])
      ts.push((await slack.call("chat.postMessage", { channel: "C0CHAN002", text })).body.ts as string);
    await slack.call("chat.postMessage", {
      channel: "C0CHAN002",
      thread_ts: ts[0],
      text: "a reply stays in its thread",
    });
    const first = (await slack.call("conversations.history", { channel: "C0CHAN002", limit: 2 })).body;
    expect((first.messages as Message[]).map((m) => m.text)).toEqual(["four", "three"]);
    expect(first.has_more).toBe(true);
    const cursor = (first.response_metadata as { next_cursor: string }).next_cursor;
    const second = (await slack.call("conversations.history", { channel: "C0CHAN002", limit: 2, cursor })).body;
    expect((second.messages as Message[]).map((m) => m.text)).toEqual(["two", "one"]);
    expect(second.has_more).toBe(false);
    const between = (await slack.call("conversations.history", { channel: "C0CHAN002", oldest: ts[0], latest: ts[3] }))
      .body;
    expect((between.messages as Message[]).map((m) => m.text)).toEqual(["three", "two"]);
    const inclusive = (
      await slack.call("conversations.history", { channel: "C0CHAN002", oldest: ts[0], latest: ts[3], inclusive: true })
    ).body;
    expect(inclusive.messages as Message[]).toHaveLength(4);
  });

  it("answers thread_not_found for a thread it does not know", async () => {
    expect(
      (await slack.call("conversations.replies", { channel: "C0CHAN003", ts: "1715000000.000001" })).body.error,
    ).toBe("thread_not_found");
  });
});
