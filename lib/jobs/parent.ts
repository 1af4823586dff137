/**
 * @module
 * The message a conversation is about when it is not in it: a thread's parent (people in a thread write "this"
 * and mean it), or the message the one being answered replies to. Looked up by the job, never by the webhook: in
 * the conversation itself, then in its channel's conversation (a thread's parent was often said there), then on
 * the platform (PlatformAdapter.fetchParent); what was found, or that there is none, is kept with the conversation
 * (ConversationState.parents), so that each conversation asks the platform once. It is people's text: the prompt
 * shows it in the data block (lib/context/prompt.ts).
 */
import { GiveUp } from "../errors.ts";
import { errorMessage } from "../log.ts";
import type { ConversationState, ParentMessage, StoredMessage } from "../message.ts";
import type { Job } from "../queue/job.ts";
import type { JobScope } from "./scope.ts";

/** What the place's own parent (a thread's starter message) is kept under: message ids are never empty. */
const PLACE_PARENT = "";

/**
 * The parent of `current` (the message being answered): the message it replies to, or else the place's own
 * parent. null when there is none, when it is in the conversation already, or when the platform could not say.
 */
export async function parentFor(
  scope: JobScope,
  state: ConversationState,
  current: StoredMessage,
): Promise<StoredMessage | null> {
  const { rt, job, replier } = scope;
  const of = current.replyToId ?? PLACE_PARENT;
  if (state.recent.some((m) => m.id === of)) return null;
  const kept = state.parents?.[of];
  if (kept !== undefined) return kept || null;
  let found: StoredMessage | null;
  try {
    found = await fromChannelConversation(scope, of);
    if (!found) {
      const fetched = await replier.fetchParent(job, current.replyToId);
      // Nothing to look up (a channel message on Slack, any SMS): nothing to keep either.
      if (fetched === undefined) return null;
      found = toStored(fetched, job);
    }
  } catch (err) {
    // The answer goes on without it. A refusal for good (no access, no such thread) is kept as "none"; after any
    // other failure the next job of the conversation asks again.
    rt.log.warn("parent_unavailable", { ...scope.where, message: errorMessage(err) });
    if (err instanceof GiveUp) await rt.store.rememberParent(job.key, job.conversationId, of, false);
    return null;
  }
  await rt.store.rememberParent(job.key, job.conversationId, of, found ?? false);
  return found;
}

/** A thread's parent, when the conversation of the thread's channel still holds it. */
async function fromChannelConversation({ rt, job }: JobScope, of: string): Promise<StoredMessage | null> {
  if (!job.key.thread || of === PLACE_PARENT) return null;
  const { thread: _thread, ...channel } = job.key;
  const conversation = await rt.store.load(channel);
  return conversation?.recent.find((m) => m.id === of) ?? null;
}

function toStored(parent: ParentMessage | null, job: Job): StoredMessage | null {
  if (!parent || (!parent.text.trim() && !parent.files?.length)) return null;
  return asStoredMessage(parent, job);
}

/** A message the platform returned, as the conversation keeps it: the bot's own as its turn, under its name. */
export function asStoredMessage(message: ParentMessage, job: Job): StoredMessage {
  const byBot = message.author.id === job.bot.userId;
  return {
    id: message.id,
    role: byBot ? "assistant" : "user",
    authorId: message.author.id,
    authorName: byBot ? job.bot.name : message.author.name,
    text: message.text,
    ts: message.ts,
    ...(message.files?.length ? { files: message.files } : {}),
  };
}
