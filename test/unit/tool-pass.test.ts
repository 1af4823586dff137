/**
 * The model's side of the tool loop against the local model, whole and streamed: a pass asks for tools (a streamed
 * call put together from its pieces), the pass after a round goes to FOLLOWUP_MODEL, a last pass must answer in
 * words (`tool_choice: "none"`), a model may stay quiet with [SKIP] after looking something up, and a required
 * answer it left quiet is nudged as without tools. Every pass is heard by `onUsage`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPrompt, type Prompt } from "../../lib/context/prompt.ts";
import { createLlm, type Llm, type ToolPass } from "../../lib/llm/client.ts";
import { callsMessage, resultMessage, type ToolSpec } from "../../lib/llm/tool-messages.ts";
import { freePort } from "../../dev/ports.ts";
import { startLocalModel, type RunningLocalModel } from "../../dev/local-model/server.ts";

let model: RunningLocalModel;
let control: string;
let llm: Llm;

beforeAll(async () => {
  model = await startLocalModel({ port: await freePort(), pace: { firstTokenMs: 0, tokensPerSecond: 10_000 } });
  control = model.url.replace(/\/v1$/, "");
  llm = createLlm({
    apiKey: "k",
    baseUrl: model.url,
    model: "reply-model",
    judgeModel: "judge-model",
    visionModel: "vision-model",
    followupModel: "followup-model",
    timeoutMs: 2_000,
    maxReplyTokens: 200,
  });
});
afterAll(() => model.close());

const TOOLS: ToolSpec[] = [
  {
    name: "lookup_ticket",
    description: "Look a ticket up.",
    parameters: { type: "object", properties: { id: { type: "string" } } },
  },
];

function promptFor(text: string): Prompt {
  return buildPrompt({
    persona: "You help.",
    botName: "Parley",
    botUserId: "UBOT",
    now: new Date(0),
    history: [],
    current: { id: "m1", role: "user", authorId: "U1", authorName: "Alice", text, ts: 1 },
    budgetTokens: 2_000,
  });
}

async function requests(match: string): Promise<{ model: string; tool_choice?: string }[]> {
  return (await fetch(`${control}/__requests?match=${encodeURIComponent(match)}`)).json();
}

const modes = [
  {
    mode: "whole",
    pass: (prompt: Prompt, pass: ToolPass, required: boolean, onUsage: (n: number) => void) =>
      llm.generatePass(prompt, pass, { required, onUsage }),
  },
  {
    mode: "streamed",
    pass: async (prompt: Prompt, pass: ToolPass, required: boolean, onUsage: (n: number) => void) => {
      const result = await llm.streamPass(prompt, pass, { required, onUsage });
      if (result.kind === "tools" || !result.texts)
        return result.kind === "tools" ? result : { kind: "answer" as const, text: null };
      let text = "";
      for await (const soFar of result.texts) text = soFar;
      return { kind: "answer" as const, text };
    },
  },
];

describe.each(modes)("a tool pass, $mode", ({ pass }) => {
  it("asks for a tool, then answers from its result on the follow-up model, each pass counted", async () => {
    const marker = `lookup-${crypto.randomUUID()}`;
    const prompt = promptFor(`status of ticket 42? ${marker}`);
    const used: number[] = [];
    const first = await pass(prompt, { tools: TOOLS, rounds: [], answerNow: false }, true, (n) => used.push(n));
    expect(first).toEqual({
      kind: "tools",
      calls: [{ id: expect.stringMatching(/^call_/), name: "lookup_ticket", arguments: '{"id":"42"}' }],
    });
    if (first.kind !== "tools") return;
    const rounds = [
      callsMessage(first.calls),
      resultMessage(first.calls[0]!, '{"tool":"lookup_ticket","result":"Ticket 42: printer jammed"}'),
    ];
    const second = await pass(prompt, { tools: TOOLS, rounds, answerNow: true }, true, (n) => used.push(n));
    expect(second).toEqual({ kind: "answer", text: "(local model) lookup_ticket: Ticket 42: printer jammed" });
    expect((await requests(marker)).map((r) => [r.model, r.tool_choice])).toEqual([
      ["reply-model", undefined],
      ["followup-model", "none"],
    ]);
    expect(used).toHaveLength(2);
    expect(used.every((n) => n > 0)).toBe(true);
  });

  it("may stay quiet with [SKIP] after looking something up, unless the answer is required", async () => {
    const marker = `skip-${crypto.randomUUID()}`;
    await fetch(`${control}/__script`, {
      method: "POST",
      body: JSON.stringify({ rules: [{ match: marker, afterTools: true, reply: "[SKIP]" }] }),
    });
    const prompt = promptFor(`ticket 7 ${marker}`);
    const first = await pass(prompt, { tools: TOOLS, rounds: [], answerNow: false }, false, () => undefined);
    if (first.kind !== "tools") throw new Error("expected a tool call");
    const rounds = [
      callsMessage(first.calls),
      resultMessage(first.calls[0]!, '{"tool":"lookup_ticket","result":"no ticket 7"}'),
    ];
    expect(await pass(prompt, { tools: TOOLS, rounds, answerNow: false }, false, () => undefined)).toEqual({
      kind: "answer",
      text: null,
    });
    // Required: nudged once (tools still offered, none to be called), then the nudged answer.
    const nudged = await pass(prompt, { tools: TOOLS, rounds, answerNow: false }, true, () => undefined);
    expect(nudged.kind).toBe("answer");
    expect((await requests(marker)).at(-1)!.tool_choice).toBe("none");
  });
});
