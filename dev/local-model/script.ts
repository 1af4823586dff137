/**
 * @module
 * What tests can tell the local model over HTTP: scripted answers (or failures, or a pace) for messages
 * containing a marker, and the record of requests it received.
 */
import { z } from "zod";

export const ruleSchema = z.object({
  match: z.string(),
  reply: z.string().optional(),
  status: z.number().int().min(100).max(599).optional(),
  delayMs: z.number().int().min(0).optional(),
  times: z.number().int().positive().optional(),
  /** The pace of this answer (see ./pace.ts). */
  firstTokenMs: z.number().int().min(0).optional(),
  tokensPerSecond: z.number().positive().optional(),
  answerTokens: z.number().int().positive().max(100_000).optional(),
});
export const scriptSchema = z.object({ rules: z.array(ruleSchema) });
export type ScriptRule = z.infer<typeof ruleSchema>;

/** A content part as OpenAI's chat API takes it: text, or a picture by URL (a data URL from Parley). */
const partSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({ type: z.literal("image_url"), image_url: z.object({ url: z.string(), detail: z.enum(["auto", "low", "high"]).optional() }) }),
]);

/** A message's text, and the picture URLs of its parts (`images`), which only a user message may carry. */
const messageSchema = z
  .object({ role: z.string(), content: z.union([z.string(), z.array(partSchema).min(1)]) })
  .refine((m) => typeof m.content === "string" || m.role === "user", { message: "only user messages may carry image parts" })
  .transform(({ role, content }) => {
    if (typeof content === "string") return { role, content };
    const text = content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n");
    const images = content.flatMap((p) => (p.type === "image_url" ? [p.image_url.url] : []));
    return { role, content: text, ...(images.length ? { images } : {}) };
  });

export const chatRequestSchema = z.object({
  model: z.string(),
  messages: z.array(messageSchema).min(1),
  max_tokens: z.number().optional(),
  max_completion_tokens: z.number().optional(),
  stream: z.boolean().optional(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).nullish(),
});
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
    const index = this.#rules.findIndex((r) => text.includes(r.match));
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
