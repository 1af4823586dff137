/**
 * @module
 * Slack's user-mention syntax (`<@U123>` or `<@U123|name>`): which users a text mentions, and the same text made
 * readable for the model (`@BotName` for the bot, `@U123` for anyone else).
 */

/** User ids start with U, or W on Enterprise Grid. */
const USER_MENTION = /<@([UW][A-Z0-9]+)(?:\|[^>]*)?>/g;

/** Every user id mentioned in the text, in order of first appearance, without repeats. */
export function mentionedUserIds(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(USER_MENTION), (m) => m[1]!))];
}

/** The text with mention markup replaced by readable `@names`. */
export function readableMentions(text: string, bot: { userId: string; name: string }): string {
  return text.replace(USER_MENTION, (_markup, userId: string) =>
    userId === bot.userId ? `@${bot.name}` : `@${userId}`,
  );
}
