/**
 * @module
 * The local model as the official OpenAI client sees it: streamed answers with usage, at a chosen pace and length,
 * and its faults (a timeout, garbage, an answer starting with [SKIP]).
 */
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startLocalModel, type RunningLocalModel } from "../../dev/local-model/server.ts";

let model: RunningLocalModel;
let control: string;
let client: OpenAI;
beforeAll(async () => {
  model = await startLocalModel({ port: 0, pace: { firstTokenMs: 0, tokensPerSecond: null, answerTokens: null } });
  control = model.url.replace(/\/v1$/, "");
  client = new OpenAI({ apiKey: "test-key", baseURL: model.url, timeout: 2_000, maxRetries: 0 });
});
afterAll(() => model.close());
beforeEach(() => fetch(`${control}/__reset`, { method: "POST" }));

const post = (path: string, body: unknown) =>
  fetch(`${control}${path}`, { method: "POST", body: JSON.stringify(body) });
const ask = (text: string) => ({
  model: "reply-model",
  messages: [
    { role: "system" as const, content: "Be brief." },
    { role: "user" as const, content: text },
  ],
});

async function streamed(
  text: string,
): Promise<{ pieces: string[]; usage: OpenAI.CompletionUsage | null | undefined; arrivals: number[] }> {
  const started = Date.now();
  const stream = await client.chat.completions.create({
    ...ask(text),
    stream: true,
    stream_options: { include_usage: true },
  });
  const pieces: string[] = [];
  const arrivals: number[] = [];
  let usage: OpenAI.CompletionUsage | null | undefined;
  for await (const chunk of stream) {
    const piece = chunk.choices[0]?.delta.content;
    if (piece) {
      pieces.push(piece);
      arrivals.push(Date.now() - started);
    }
    if (chunk.usage) usage = chunk.usage;
  }
  return { pieces, usage, arrivals };
}

describe("streaming", () => {
  it("streams the scripted answer in pieces, with usage in the last chunk", async () => {
    await post("/__script", { rules: [{ match: "marker-stream", reply: "One two three, four." }] });
    const { pieces, usage } = await streamed("marker-stream please");
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join("")).toBe("One two three, four.");
    expect(usage).toMatchObject({ completion_tokens: expect.any(Number), prompt_tokens: expect.any(Number) });
    expect(usage!.total_tokens).toBe(usage!.prompt_tokens + usage!.completion_tokens);
  });

  it("waits for the first token, then keeps the token rate", async () => {
    await post("/__script", {
      rules: [{ match: "marker-pace", reply: "a b c d e f g h i j", firstTokenMs: 200, tokensPerSecond: 50 }],
    });
    const { arrivals } = await streamed("marker-pace");
    // The pace is a floor: piece i is not sent before 200 ms + i × 20 ms (a loaded machine only makes it later, so
    // no gap between arrivals is asserted; 5 ms allow for the timers' rounding).
    expect(arrivals.length).toBeGreaterThan(5);
    for (const [i, at] of arrivals.entries()) expect(at, `piece ${i}`).toBeGreaterThanOrEqual(200 + i * 20 - 5);
  });

  it("writes an answer of about the asked length, when the prompt's marker asks for one", async () => {
    const { usage, pieces } = await streamed("explain caching [[local-model tokens=400]]");
    expect(usage!.completion_tokens).toBeGreaterThanOrEqual(400);
    expect(usage!.completion_tokens).toBeLessThan(460);
    expect(pieces.join("")).toContain("```ts");
  });

  it("gives usage figures in whole answers too", async () => {
    const answer = await client.chat.completions.create(ask("hello there"));
    expect(answer.usage!.completion_tokens).toBeGreaterThan(0);
    expect(answer.choices[0]!.message.content).toContain("hello there");
  });
});

describe("model faults", () => {
  it("times out (no answer) when told to hang, and answers the next call normally", async () => {
    await post("/__fail", { fault: "hang", path: "/chat.completions", bodyContains: "marker-hang" });
    const quick = new OpenAI({ apiKey: "k", baseURL: model.url, timeout: 300, maxRetries: 0 });
    await expect(quick.chat.completions.create(ask("marker-hang"))).rejects.toThrow(/timed out/i);
    expect((await quick.chat.completions.create(ask("marker-hang"))).choices[0]!.message.content).toBeTruthy();
  });

  it("answers garbage that is not JSON, or JSON of the wrong shape", async () => {
    await post("/__fail", { fault: "garbage", shape: "not_json" });
    await expect(client.chat.completions.create(ask("x"))).rejects.toThrow();
    await post("/__fail", { fault: "garbage", shape: "wrong_shape" });
    const odd = (await client.chat.completions.create(ask("x"))) as unknown as { choices?: unknown };
    expect(odd.choices).toBeUndefined();
  });

  it("starts the answer with [SKIP] when told to, streamed or not", async () => {
    await post("/__fail", { fault: "skip", text: " not for me", bodyContains: '"kind":"reply"', times: 2 });
    expect((await client.chat.completions.create(ask("hi"))).choices[0]!.message.content).toBe("[SKIP] not for me");
    expect((await streamed("hi")).pieces.join("")).toBe("[SKIP] not for me");
  });

  it("breaks a stream halfway when told to drop", async () => {
    await post("/__script", { rules: [{ match: "marker-drop", reply: "one two three four five six seven eight" }] });
    await post("/__fail", { fault: "drop_after", bodyContains: '"stream":"true"' });
    await expect(streamed("marker-drop")).rejects.toThrow();
  });
});
