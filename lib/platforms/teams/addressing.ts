/**
 * @module
 * How a Teams message addresses the bot, from its mention entities, never guessed from the words. In a 1:1 chat
 * every message is for the bot. In a channel or group chat Teams delivers only messages that @mention the bot,
 * unless the app holds the resource-specific consent permissions `ChannelMessage.Read.Group` /
 * `ChatMessage.Read.Chat`, in which case every message arrives and the mention decides ("Receive all messages with
 * RSC"). A mention is an entity `{type: "mention", mentioned: {id, name}, text: "<at>Name</at>"}` whose `text` is
 * in the message's text as written; the bot's own is the one whose `mentioned.id` is the activity's recipient.
 * The bot's mention becomes `@BOT_NAME` in the text the model reads, another person's `@Name`; their ids are the
 * message's mentions. What remains of Teams' HTML in a text (entities such as `&nbsp;`) is read as its characters.
 */
import type { Addressing } from "../../message.ts";
import type { TeamsMessageActivity } from "./schema.ts";

export interface Addressed {
  addressing: Addressing;
  text: string;
  mentions: string[];
}

const ENTITIES: Record<string, string> = { nbsp: " ", amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", "#39": "'" };
/** A mention span Teams wrote but named in no entity: its name, as a person reads it. */
const AT_SPAN = /<at(?:\s[^>]*)?>([\s\S]*?)<\/at>/gi;

export function readAddressing(
  activity: TeamsMessageActivity,
  opts: { personal: boolean; botName: string },
): Addressed {
  let text = activity.text ?? "";
  const mentions = (activity.entities ?? []).flatMap((e) =>
    e.type === "mention" && e.mentioned ? [{ id: e.mentioned.id, name: e.mentioned.name, text: e.text }] : [],
  );
  const own = mentions.filter((m) => m.id === activity.recipient.id);
  for (const m of mentions) {
    if (!m.text || !text.includes(m.text)) continue;
    text = text
      .split(m.text)
      .join(m.id === activity.recipient.id ? `@${opts.botName}` : `@${spanName(m.text, m.name)}`);
  }
  text = decodeEntities(text.replace(AT_SPAN, (_, name: string) => `@${name}`)).trim();
  return {
    addressing: opts.personal ? "dm" : own.length > 0 ? "mention" : "none",
    text,
    mentions: [...new Set(mentions.map((m) => m.id))],
  };
}

/** The name a mention's `<at>Name</at>` shows, or the entity's when the span has none. */
function spanName(span: string, name: string | undefined): string {
  return span.replace(AT_SPAN, "$1").trim() || name || "someone";
}

function decodeEntities(text: string): string {
  return text.replace(/&(nbsp|amp|lt|gt|quot|apos|#39);/g, (_, name: string) => ENTITIES[name] ?? "");
}
