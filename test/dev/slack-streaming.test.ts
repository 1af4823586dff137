/**
 * @module
 * The Slack fake's text streaming: what chat.startStream / appendStream / stopStream accept and refuse, as Slack does.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSlack, type SlackHarness } from "./slack-client.ts";

let slack: SlackHarness;
beforeAll(async () => {
  slack = await startSlack();
});
afterAll(() => slack.close());
beforeEach(() => slack.control("/__reset", {}));

const THREAD = "1715000000.000100";
const start = (extra: Record<string, unknown> = {}) =>
  slack.call("chat.startStream", { channel: "D0DM00001", thread_ts: THREAD, ...extra });

interface StoredMessage {
  ts: string;
  text: string;
  streaming_state?: string;
  revisions: { method: string; chars: number }[];
}
const message = async (ts: string) => (await slack.control<StoredMessage[]>(`/__messages?ts=${ts}`))[0]!;

describe("chat.startStream / appendStream / stopStream", () => {
  it("streams a reply in a DM thread, appending markdown until stopped", async () => {
    const started = await start({ markdown_text: "Hel" });
    expect(started.body).toMatchObject({ ok: true, channel: "D0DM00001" });
    const ts = started.body.ts as string;
    expect((await slack.call("chat.appendStream", { channel: "D0DM00001", ts, markdown_text: "lo" })).body).toEqual({
      ok: true,
      channel: "D0DM00001",
      ts,
    });
    const stopped = await slack.call("chat.stopStream", { channel: "D0DM00001", ts, markdown_text: "!" });
    expect(stopped.body).toMatchObject({
      ok: true,
      message: { text: "Hello!", streaming_state: "completed", thread_ts: THREAD },
    });
    expect((await message(ts)).revisions.map((r) => r.method)).toEqual([
      "chat.startStream",
      "chat.appendStream",
      "chat.stopStream",
    ]);
  });

  it("takes chunks sent as a form, the way the official Node client sends them", async () => {
    const chunks = [
      { type: "markdown_text", text: "from " },
      { type: "task_update", id: "t1", title: "Look up", status: "complete" },
    ];
    const ts = (
      await slack.call("chat.startStream", { channel: "D0DM00001", thread_ts: THREAD, chunks }, { form: true })
    ).body.ts as string;
    await slack.call(
      "chat.appendStream",
      { channel: "D0DM00001", ts, chunks: [{ type: "markdown_text", text: "chunks" }] },
      { form: true },
    );
    expect((await message(ts)).text).toBe("from chunks");
  });

  it("refuses mixing markdown_text and chunks, in one call or across a stream", async () => {
    expect((await start({ markdown_text: "a", chunks: [{ type: "markdown_text", text: "b" }] })).body.error).toBe(
      "cannot_provide_both_markdown_text_and_chunks",
    );
    const ts = (await start({ markdown_text: "a" })).body.ts;
    expect(
      (
        await slack.call("chat.appendStream", {
          channel: "D0DM00001",
          ts,
          chunks: [{ type: "markdown_text", text: "b" }],
        })
      ).body.error,
    ).toBe("streaming_mode_mismatch");
    expect((await slack.call("chat.appendStream", { channel: "D0DM00001", ts })).body.error).toBe(
      "markdown_text_or_chunks_required",
    );
    expect(
      (await slack.call("chat.appendStream", { channel: "D0DM00001", ts, chunks: [{ type: "nonsense" }] })).body.error,
    ).toBe("invalid_chunks");
  });

  it("needs the recipient user and team to stream in a channel, and a thread everywhere", async () => {
    expect((await start({ channel: "C0CHAN001" })).body.error).toBe("missing_recipient_user_id");
    expect((await start({ channel: "C0CHAN001", recipient_user_id: "U1" })).body.error).toBe(
      "missing_recipient_team_id",
    );
    expect(
      (await start({ channel: "C0CHAN001", recipient_user_id: "U1", recipient_team_id: "T0FAKETEAM" })).body.ok,
    ).toBe(true);
    expect((await start({ thread_ts: undefined })).body.error).toBe("invalid_thread_ts");
  });

  it("holds at most 12,000 characters", async () => {
    const ts = (await start({ markdown_text: "x".repeat(11_999) })).body.ts;
    expect((await slack.call("chat.appendStream", { channel: "D0DM00001", ts, markdown_text: "yy" })).body.error).toBe(
      "msg_too_long",
    );
    expect((await slack.call("chat.appendStream", { channel: "D0DM00001", ts, markdown_text: "y" })).body.ok).toBe(
      true,
    );
  });

  it("refuses appends after the stop, after the person pressed Stop, and edits while streaming", async () => {
    const ts = (await start({ markdown_text: "a" })).body.ts as string;
    expect((await slack.call("chat.update", { channel: "D0DM00001", ts, text: "edit" })).body.error).toBe(
      "streaming_state_conflict",
    );
    await slack.control("/__stop_stream", { channel: "D0DM00001", ts });
    expect((await slack.call("chat.appendStream", { channel: "D0DM00001", ts, markdown_text: "b" })).body.error).toBe(
      "stopped_by_user",
    );
    expect((await slack.call("chat.stopStream", { channel: "D0DM00001", ts })).body.ok).toBe(true);
    expect((await slack.call("chat.appendStream", { channel: "D0DM00001", ts, markdown_text: "c" })).body.error).toBe(
      "message_not_in_streaming_state",
    );
    expect((await slack.call("chat.stopStream", { channel: "D0DM00001", ts })).body.error).toBe(
      "message_not_in_streaming_state",
    );
    expect((await slack.call("chat.update", { channel: "D0DM00001", ts, text: "edited after" })).body.ok).toBe(true);
  });

  it("ends a stream left open past its lifetime", async () => {
    // A second of lifetime: long enough that the first listing, right after the start, sees the stream open even on
    // a loaded machine (50 ms was not), short enough to wait out here.
    await slack.control("/__config", { streaming: { lifetimeMs: 1_000 } });
    const ts = (await start({ markdown_text: "a" })).body.ts;
    const listed = async () =>
      (
        (await slack.call("conversations.replies", { channel: "D0DM00001", ts: THREAD })).body
          .messages as StoredMessage[]
      ).find((m) => m.ts === ts)?.streaming_state;
    expect(await listed()).toBe("in_progress");
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await slack.call("chat.appendStream", { channel: "D0DM00001", ts, markdown_text: "b" })).body.error).toBe(
      "message_not_in_streaming_state",
    );
    // Slack's value for a stream it ended unfinished: closed, not open.
    expect(await listed()).toBe("errored");
  });

  it("answers channel_type_not_supported where configured, and unknown_method in an older workspace", async () => {
    await slack.control("/__config", { streaming: { refusedChannels: ["G"] } });
    expect(
      (await start({ channel: "G0PRIV001", recipient_user_id: "U1", recipient_team_id: "T0FAKETEAM" })).body.error,
    ).toBe("channel_type_not_supported");
    await slack.control("/__config", { streaming: { olderWorkspaces: ["T0FAKETEAM"] } });
    for (const method of ["chat.startStream", "chat.appendStream", "chat.stopStream"]) {
      const answer = await slack.call(method, {
        channel: "D0DM00001",
        ts: THREAD,
        thread_ts: THREAD,
        markdown_text: "a",
      });
      expect(answer.body).toEqual({ ok: false, error: "unknown_method", req_method: method });
    }
    expect((await slack.call("chat.postMessage", { channel: "D0DM00001", text: "still posts" })).body.ok).toBe(true);
  });
});
