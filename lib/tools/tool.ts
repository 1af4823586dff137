/**
 * @module
 * What a tool is (docs/tools.md): a name, what it does, the JSON Schema of its arguments (what the model is told),
 * whether a person must approve each call, and how it runs. A tool sees only the answer's own place: the context
 * carries that place, the asker, and nothing of any other tenant. A TypeScript tool is declared with `defineTool`
 * and a zod schema, which checks the model's arguments and gives the JSON Schema.
 */
import type { ConversationKey, Visibility } from "../message.ts";
import type { ForgetMarks } from "../memory/forgotten.ts";
import type { Recall } from "../memory/recall/index-for.ts";
import type { Services } from "../services.ts";
import * as z from "../zod.ts";

/** What the built-in tools read beside the settings: the forget marks (read_channel) and recall (search_memory). */
export type ToolServices = Services & { forgotten: ForgetMarks; recall: Recall | null };

/** Where and for whom a call runs: the answer's place, its asker, and the call's idempotency key. */
export interface ToolContext {
  services: ToolServices;
  place: ConversationKey;
  /** The conversation the answer is in (search_memory leaves out what its prompt already carries). */
  conversationId: string;
  askerId: string;
  /**
   * The place's and the asker's ids are personal data (phone numbers: the platform's `logIds: "pseudonym"`); what
   * leaves the Worker for a tool's endpoint then carries keyed pseudonyms of them (./http-tool.ts).
   */
  personalIds: boolean;
  /** `<place>|<trigger id>:<call index>`: the same on every retry of the answer, so an endpoint can drop a repeat. */
  idempotencyKey: string;
  /** Who can read the place (asked of the platform at most once per job). */
  visibility(): Promise<Visibility>;
  /** Ends when the call's time (TOOL_TIMEOUT_MS) is up. */
  signal: AbortSignal;
  /**
   * The answered place's messages before the answered one, from its platform (read_channel); bound to the job's
   * place, so a tool cannot read any other. Absent where the job reads none; undefined from a platform with none.
   */
  readPlace?(window: {
    sinceMs: number;
    limit: number;
  }): Promise<{ messages: PlaceLine[] } | { refused: string } | undefined>;
}

/** A message read from the place (the platforms' PlaceMessage, seen from below them). */
export interface PlaceLine {
  author: { id: string; name: string; isBot: boolean };
  text: string;
  /** Milliseconds since the epoch. */
  ts: number;
}

export interface Tool {
  name: string;
  description: string;
  /** JSON Schema of the arguments (`type: "object"`). */
  parameters: Record<string, unknown>;
  /** Never run on the model's word alone: each call needs a person's approval (docs/tools.md). */
  confirm?: boolean;
  /** The result as text for the model; throws ToolRefusal for an answer the model may act on ("not found"). */
  run(args: unknown, ctx: ToolContext): Promise<string>;
}

/** A failure the model is told about in words (bad arguments, a refused URL, nothing found). */
export class ToolRefusal extends Error {}

/** A TypeScript tool: its arguments checked with `args` before `run` sees them. */
export function defineTool<S extends z.ZodMiniType<Record<string, unknown>>>(def: {
  name: string;
  description: string;
  args: S;
  confirm?: boolean;
  run(args: z.output<S>, ctx: ToolContext): Promise<string>;
}): Tool {
  return {
    name: def.name,
    description: def.description,
    parameters: z.toJSONSchema(def.args, { io: "input" }) as Record<string, unknown>,
    ...(def.confirm ? { confirm: true } : {}),
    async run(raw, ctx) {
      const parsed = def.args.safeParse(raw);
      if (!parsed.success)
        throw new ToolRefusal(
          `invalid arguments: ` +
            `${parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"} ${i.message}`).join("; ")}`,
        );
      return def.run(parsed.data, ctx);
    },
  };
}
