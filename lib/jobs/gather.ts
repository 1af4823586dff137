/**
 * @module
 * Gathering what an answer is written from: the turn being answered with the conversation before it (with what was
 * said in the place before the bot was called, read into it at its start: ./backfill.ts), what is remembered about
 * its people, recalled passages of earlier conversations, and the message the place is about; then the prompt,
 * built under the token budget (lib/context/prompt.ts), which drops the oldest first.
 */
import { buildPrompt, type Prompt } from "../context/prompt.ts";
import type { Turn } from "../conversation/turn.ts";
import type { ConversationState } from "../message.ts";
import { parentFiles, turnFiles } from "./attachments.ts";
import { parentFor } from "./parent.ts";
import { recalledForAnswer } from "./recall.ts";
import { rememberedPeople } from "./remembered.ts";
import type { JobScope } from "./scope.ts";

export async function gatherPrompt(scope: JobScope, state: ConversationState, turn: Turn): Promise<Prompt> {
  const { rt, job } = scope;
  const s = rt.settings;
  const said = [...turn.history, turn.current];
  const [people, earlier, parent, pasted] = await Promise.all([
    rememberedPeople(scope, said),
    recalledForAnswer(scope, state.recent, said),
    parentFor(scope, state, turn.current),
    turnFiles(scope, turn),
  ]);
  // Read after the turn's own files: the parent's pictures go only when the turn brought none.
  const about = parent ? await parentFiles(scope, parent, turn, pasted) : null;
  return buildPrompt({
    persona: s.BOT_PERSONA,
    botName: job.bot.name,
    botUserId: job.bot.userId,
    now: new Date(rt.now()),
    ...(about ? { parent: about.parent } : {}),
    summary: state.summary,
    systemNotes: job.systemNotes,
    people,
    earlier,
    files: pasted.files,
    images: [...pasted.images, ...(about?.images ?? [])],
    history: pasted.history,
    current: pasted.current,
    budgetTokens: s.PROMPT_TOKEN_BUDGET,
  });
}
