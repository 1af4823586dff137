/**
 * @module
 * `search_memory`: recall on the model's request, with the query it chooses. The same query as automatic recall
 * (lib/jobs/recall.ts) in everything but the text: the tenant's namespace, the answer's own channel and visibility,
 * the same threshold, and "forget me" deletes from the same index, so this tool finds nothing automatic recall may
 * not. On only when recall is (RECALL_ENABLED and an index).
 */
import { recallFilter } from "../memory/recall/filters.ts";
import { earlierRecord, recallBudgetTokens } from "../memory/recall/format.ts";
import { recallForAnswer } from "../memory/recall/recall.ts";
import { recallIndexSettings, type Settings } from "../config.ts";
import * as z from "../zod.ts";
import { defineTool, type Tool } from "./tool.ts";

const SEARCH_MEMORY = "search_memory";

const searchMemory = defineTool({
  name: SEARCH_MEMORY,
  description:
    "Search what was said earlier in this channel (earlier conversations) for a topic; returns dated passages.",
  args: z.object({ query: z.string().check(z.minLength(1), z.maxLength(500)) }),
  async run({ query }, ctx) {
    const s = ctx.services;
    if (!s.recall) return "memory search is not available";
    const recalled = await recallForAnswer(s.recall.index, {
      namespace: s.recall.namespace(ctx.place),
      filter: recallFilter(ctx.place, await ctx.visibility()),
      queryText: query,
      now: s.now(),
      // This conversation's own passages are left out: its messages are what the prompt is made of.
      window: { conversationId: ctx.conversationId, since: 0 },
      maxTokens: recallBudgetTokens(s.settings.PROMPT_TOKEN_BUDGET),
    });
    if (recalled.outcome === "unavailable") throw new Error(`memory search failed (${recalled.error})`);
    if (recalled.passages.length === 0) return "nothing found";
    return recalled.passages
      .map((p) => earlierRecord(p))
      .map((r) => `${r.date}: ${r.earlier}`)
      .join("\n");
  },
});

/** The tool, when recall is on. */
export function searchMemoryTool(s: Settings): Tool | null {
  return recallIndexSettings(s) ? searchMemory : null;
}
