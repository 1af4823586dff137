/**
 * @module
 * The message an acknowledged interaction leaves, as Discord makes it from the app's answer (./interactions.ts): a
 * new message (the answer's, "thinking…" for a deferral, a note only its reader sees with flag 64), or, for a press
 * answered with an update, the pressed message itself, changed by a type 7; either becomes the token's `@original`.
 */
import { keepComponents } from "./components.ts";
import type { InteractionReport, OriginalMessage } from "./interactions.ts";
import type { DiscordMessages, PostedChannelMessage } from "./messages.ts";
import { botMessage } from "./route.ts";

export function originalMessage(
  messages: DiscordMessages,
  report: InteractionReport,
  original: OriginalMessage,
  nextId: () => string,
): PostedChannelMessage | undefined {
  if (original.pressed) {
    const pressed = messages.get(original.pressed.messageId);
    if (!pressed) return undefined;
    const { update } = original.pressed;
    if (update) keepComponents(messages.edit(pressed, update.content, "update_message"), update);
    messages.setOriginal(report.token, pressed.message.id);
    return pressed.message;
  }
  const message = botMessage(nextId(), original.channelId, original.content, {
    webhook_id: report.application_id,
    ...(original.flags ? { flags: original.flags } : {}),
    ...(original.components ? { components: original.components } : {}),
  });
  messages.create(message, "interaction_response", report.token);
  messages.setOriginal(report.token, message.id);
  return message;
}
