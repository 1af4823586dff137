/**
 * @module
 * What tests can tell the local model over HTTP: scripted answers (or failures, or a pace) for messages
 * containing a marker, and the record of requests it received.
 */
import { z } from "zod";

const ruleSchema = z.object({
  match: z.string(),
  reply: z.string().optional(),
  status: z.number().int().min(100).max(599).optional(),
  delayMs: z.number().int().min(0).optional(),
  times: z.number().int().positive().optional(),
  /** The pace of this answer (see ./pace.ts). */
  firstTokenMs: z.number().int().min(0).optional(),
  tokensPerSecond: z.number().positive().optional(),
  answerTokens: z.number().int().positive().max(100_000).optional(),
  /** Tool calls to make instead of answering, when the request offers tools (./tool-calls.ts). */
  toolCalls: z.array(z.object({ name: z.string(), arguments: z.string() })).optional(),
  /** true: the rule matches only a pass after tool results; false: only one before any. */
  afterTools: z.boolean().optional(),
});
export const scriptSchema = z.object({ rules: z.array(ruleSchema) });
export type ScriptRule = z.infer<typeof ruleSchema>;

/** A content part as OpenAI's chat API takes it: text, or a picture by URL (a data URL from Parley). */
const partSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({
    type: z.literal("image_url"),
    image_url: z.object({ url: z.string(), detail: z.enum(["auto", "low", "high"]).optional() }),
  }),
]);

const toolCallSchema = z.object({
  id: z.string().min(1),
  type: z.literal("function"),
  function: z.object({ name: z.string(), arguments: z.string() }),
});
/**
 * As OpenAI takes them: an assistant message may carry tool calls (its content then null), a tool message answers
 * one, and only a user message may carry image parts. A message becomes its text, with the picture URLs of its parts
 * (`images`).
 */
const messageSchema = z
  .object({
    role: z.enum(["system", "developer", "user", "assistant", "tool"]),
    content: z.union([z.string(), z.array(partSchema).min(1)]).nullable(),
    tool_calls: z.array(toolCallSchema).min(1).optional(),
    tool_call_id: z.string().optional(),
  })
  .refine((m) => typeof m.content === "string" || m.content === null || m.role === "user", {
    message: "only user messages may carry image parts",
  })
  .transform(({ content, ...rest }) => {
    if (content === null || typeof content === "string") return { ...rest, content: content ?? "" };
    const text = content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");
    const images = content.flatMap((p) => (p.type === "image_url" ? [p.image_url.url] : []));
    return { ...rest, content: text, ...(images.length ? { images } : {}) };
  });

export const chatRequestSchema = z.object({
  model: z.string(),
  messages: z.array(messageSchema).min(1).superRefine(answeredInOrder),
  max_tokens: z.number().optional(),
  max_completion_tokens: z.number().optional(),
  stream: z.boolean().optional(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).nullish(),
  tools: z
    .array(
      z.object({
        type: z.literal("function"),
        function: z.object({
          name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/),
          description: z.string().optional(),
          parameters: z.record(z.string(), z.unknown()).optional(),
        }),
      }),
    )
    .optional(),
  tool_choice: z
    .union([
      z.enum(["none", "auto", "required"]),
      z.object({ type: z.literal("function"), function: z.object({ name: z.string() }) }),
    ])
    .optional(),
});

/**
 * OpenAI refuses (400) a tool message that does not answer a call of the assistant message before it, and an
 * assistant's tool calls not all answered before the next other message.
 */
function answeredInOrder(messages: z.infer<typeof messageSchema>[], ctx: z.RefinementCtx): void {
  let open = new Set<string>();
  for (const [i, m] of messages.entries()) {
    if (m.role === "tool") {
      if (!m.tool_call_id || !open.delete(m.tool_call_id))
        ctx.addIssue({
          code: "custom",
          path: [i],
          message: "messages with role 'tool' must be a response to a preceding message with 'tool_calls'",
        });
      continue;
    }
    if (open.size > 0)
      ctx.addIssue({
        code: "custom",
        path: [i],
        message:
          "an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'",
      });
    open = new Set((m.role === "assistant" ? (m.tool_calls ?? []) : []).map((c) => c.id));
  }
  if (open.size > 0)
    ctx.addIssue({
      code: "custom",
      message:
        "an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'",
    });
}
export type ChatRequest = z.infer<typeof chatRequestSchema>;
export type RecordedRequest = ChatRequest & { receivedAt: number };

/** The content of the last user message: what rules and request queries match against. */
export function lastUserMessage(req: ChatRequest): string {
  return req.messages.findLast((m) => m.role === "user")?.content ?? "";
}

export class ModelScript {
  #rules: ScriptRule[] = [];
  #requests: RecordedRequest[] = [];

  add(rules: ScriptRule[]): void {
    this.#rules.push(...rules.map((r) => ({ ...r })));
  }

  reset(): void {
    this.#rules = [];
    this.#requests = [];
  }

  /** Keeps the request with when it arrived (ms), for benches that time the model's first token. */
  record(req: ChatRequest): void {
    this.#requests.push({ ...req, receivedAt: Date.now() });
  }

  /** The first rule that matches the request, using up one of its `times`. */
  take(req: ChatRequest): ScriptRule | undefined {
    const text = lastUserMessage(req);
    const afterTools = req.messages.at(-1)?.role === "tool";
    const index = this.#rules.findIndex(
      (r) => text.includes(r.match) && (r.afterTools === undefined || r.afterTools === afterTools),
    );
    if (index < 0) return undefined;
    const rule = this.#rules[index]!;
    if (rule.times !== undefined) {
      rule.times -= 1;
      if (rule.times === 0) this.#rules.splice(index, 1);
    }
    return rule;
  }

  requests(match: string): RecordedRequest[] {
    return this.#requests.filter((r) => lastUserMessage(r).includes(match));
  }
}
