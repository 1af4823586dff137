/**
 * @module
 * Teams answers shown as they are written (issue #39), at Teams' own pace (the fake refuses stream updates less than
 * a second apart, out of sequence, after the final message, and outside 1:1 chats, as Teams does): in a 1:1 chat
 * Teams' native stream, begun by the working sign's status line, its text growing in typing updates and ended by the
 * final message with the stream's id; the person's Stop ending the answer as it stands; a refused stream's status line
 * ended by the answer's message; in a group chat a posted message edited as it grows.
 */
import { describe, expect, it } from "vitest";
import type { ConversationKey } from "../../lib/message.ts";
import { teamsMarkdown } from "../../lib/platforms/teams/format.ts";
import {
  botMessages,
  deliver,
  newConversation,
  newPerson,
  place,
  recordedAnswers,
  say,
  teamsControl,
  teamsSuiteEnv,
} from "../support/teams.ts";
import { eventually, pumpJobsDuringSuite } from "../support/worker.ts";

const SUITE = "teamsstream";
const env = teamsSuiteEnv(SUITE, { STREAMING: "true", SHOW_WORKING: "true" });
const answers = recordedAnswers(env, SUITE);
/** About five seconds of answer: several updates at Teams' pace. */
const PACE = "[[local-model tokens=250 tps=50 first_ms=150]]";

pumpJobsDuringSuite(env, SUITE);

interface StreamCall {
  route: string;
  text: string;
  activityId?: string;
  streamType?: string;
  streamSequence?: number;
  refused?: string;
}

const streamCalls = (chat: string) =>
  teamsControl<StreamCall[]>(`/__calls?${new URLSearchParams({ conversation: chat })}`).then((calls) =>
    calls.filter((c) => c.streamType !== undefined),
  );

const answered = async (key: ConversationKey) => (await answers(key))[0]!.text;

describe("a Teams 1:1 answer", () => {
  it("streams in Teams' own stream: growing text from sequence 1, a second apart, ended by the final message", async () => {
    const chat = await newConversation("personal");
    const question = await say(chat, newPerson("Alice"), `how do we roll back a release? ${PACE}`);
    expect((await deliver(env, question.delivery)).status).toBe(200);
    const answer = await answered(place(chat));
    const [message, ...more] = await botMessages(chat);
    expect(more).toEqual([]);
    expect(message!.text).toBe(teamsMarkdown(answer));
    const calls = await streamCalls(chat);
    expect(calls.every((c) => c.refused === undefined)).toBe(true);
    const updates = calls.filter((c) => c.route === "stream update");
    expect(updates.length).toBeGreaterThan(2);
    expect(updates.map((c) => c.streamSequence)).toEqual(updates.map((_, i) => i + 1));
    // The working sign is the stream's status line; the answer's words continue that same stream.
    expect(updates[0]).toMatchObject({ streamType: "informative" });
    expect(updates[0]).not.toHaveProperty("activityId");
    expect(updates.slice(1).every((c) => c.activityId === message!.id && c.streamType === "streaming")).toBe(true);
    // Each update shows the whole answer so far, more of it each time.
    const texts = updates.slice(1).map((c) => c.text.length);
    for (const [i, chars] of texts.slice(1).entries()) expect(chars).toBeGreaterThan(texts[i]!);
    expect(calls.at(-1)).toMatchObject({ route: "send activity", streamType: "final", activityId: message!.id });
    expect(calls.at(-1)).not.toHaveProperty("streamSequence");
    const shown = message!.revisions.filter((r) => r.method === "stream").map((r) => r.at);
    for (const [i, at] of shown.slice(1).entries()) expect(at - shown[i]!).toBeGreaterThanOrEqual(1_000);
    expect(message!.revisions.map((r) => r.method).filter((m) => m !== "stream")).toEqual(["final"]);
  });

  it("ends as it stands when the person presses Stop, the message then saying who stopped it", async () => {
    const chat = await newConversation("personal");
    const bob = newPerson("Bob");
    const question = await say(chat, bob, `write the whole incident report [[local-model tokens=600 tps=40]]`);
    await deliver(env, question.delivery);
    await eventually(
      async () => ((await botMessages(chat))[0]?.revisions.length ?? 0) >= 2 || undefined,
      20_000,
      "the stream under way",
    );
    expect(await teamsControl("/__stop-stream", { conversation: chat })).toEqual({ stopped: true });
    const answer = await answered(place(chat));
    expect(answer).toMatch(/_\(stopped by Bob\)_$/);
    const [message, ...more] = await botMessages(chat);
    expect(more).toEqual([]);
    expect(message!.text).toBe(teamsMarkdown(answer));
    expect(message!.revisions.at(-1)!.method).toBe("put");
    // One update met the Stop; none was tried after it, and no final message on a stream Teams ended.
    const refused = (await streamCalls(chat)).filter((c) => c.refused !== undefined);
    expect(refused.map((c) => c.refused)).toEqual(["ContentStreamNotAllowed"]);
  });

  it("where Teams refuses the answer's stream, ends the status line with the answer's message, edited as it grows", async () => {
    const chat = await newConversation("personal");
    // The status line gets through; every update after it is refused as Teams refuses a bot it will not let stream.
    await teamsControl("/__fail", {
      fault: "refuse",
      status: 400,
      path: "/stream update",
      bodyContains: chat,
      after: 1,
      times: 20,
    });
    const question = await say(chat, newPerson("Dana"), `which dashboards matter most? ${PACE}`);
    await deliver(env, question.delivery);
    const answer = await answered(place(chat));
    const [message, ...more] = await botMessages(chat);
    expect(more).toEqual([]);
    expect(message!.text).toBe(teamsMarkdown(answer));
    const methods = message!.revisions.map((r) => r.method);
    expect(methods.slice(0, 2)).toEqual(["stream", "final"]);
    expect(methods.slice(2)).toContain("put");
    expect(methods.slice(2).every((m) => m === "put")).toBe(true);
  });
});

describe("a Teams group chat answer", () => {
  it("is posted and edited as it grows, never streamed: Teams streams only in 1:1 chats", async () => {
    const chat = await newConversation("groupChat");
    const question = await say(chat, newPerson("Carol"), `what is our on-call rota? ${PACE}`, { mention: true });
    await deliver(env, question.delivery);
    const answer = await answered(place(chat));
    const [message, ...more] = await botMessages(chat);
    expect(more).toEqual([]);
    expect(message!.text).toBe(teamsMarkdown(answer));
    expect(message!.revisions.map((r) => r.method)).toEqual(expect.arrayContaining(["post", "put"]));
    expect(await streamCalls(chat)).toEqual([]);
  });
});
