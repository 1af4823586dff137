/**
 * @module
 * What each Web API method of the fake needs from its caller, as Slack's method reference says: the bot scopes
 * that let a token call it (any one of them; `conversations.*` by the kind of channel), and whether it reads a
 * JSON body (`oauth.v2.access` takes a form only: a JSON body's arguments are never read). A token without the
 * scope gets Slack's `missing_scope` with `needed` and `provided`. The bot scopes an install gets unless it asks
 * for others are those of slack-app-manifest.yaml (test/unit/tenants.test.ts keeps the two lists equal).
 */

/** slack-app-manifest.yaml's bot scopes: what the app asks for, so what a workspace grants it. */
export const SLACK_FAKE_BOT_SCOPES: readonly string[] = [
  "app_mentions:read",
  "channels:history",
  "groups:history",
  "im:history",
  "mpim:history",
  "chat:write",
  "reactions:write",
  "reactions:read",
];

interface MethodNeeds {
  /** Any one of these bot scopes lets the token call the method in `channel`. */
  scopes(channel: string): readonly string[];
  json: boolean;
}

const always = (...scopes: string[]) => () => scopes;
/** The `*:history` scope of the kind of conversation: public (C), private or group DM (G), DM (D). */
const history = (channel: string): readonly string[] =>
  channel.startsWith("C") ? ["channels:history"] : channel.startsWith("G") ? ["groups:history", "mpim:history"] : channel.startsWith("D") ? ["im:history"] : ["channels:history"];

const METHOD_NEEDS: Readonly<Record<string, MethodNeeds>> = {
  "chat.postMessage": { scopes: always("chat:write"), json: true },
  "chat.update": { scopes: always("chat:write"), json: true },
  "chat.startStream": { scopes: always("chat:write"), json: true },
  "chat.appendStream": { scopes: always("chat:write"), json: true },
  "chat.stopStream": { scopes: always("chat:write"), json: true },
  "reactions.add": { scopes: always("reactions:write"), json: true },
  "reactions.remove": { scopes: always("reactions:write"), json: true },
  "conversations.history": { scopes: history, json: true },
  "conversations.replies": { scopes: history, json: true },
  // Slack's changelog of 2026-03-05: chat:write, or assistant:write for the time being.
  "assistant.threads.setStatus": { scopes: always("chat:write", "assistant:write"), json: true },
  "assistant.threads.setSuggestedPrompts": { scopes: always("assistant:write"), json: true },
  "assistant.threads.setTitle": { scopes: always("assistant:write"), json: true },
  "auth.test": { scopes: always(), json: true },
  "oauth.v2.access": { scopes: always(), json: false },
};

/** Slack's `missing_scope` answer when the granted scopes hold none the method needs there; undefined when allowed. */
export function missingScope(method: string, channel: string, granted: string): { ok: false; error: "missing_scope"; needed: string; provided: string } | undefined {
  const needed = METHOD_NEEDS[method]?.scopes(channel) ?? [];
  const provided = granted.split(",").filter(Boolean);
  if (needed.length === 0 || needed.some((scope) => provided.includes(scope))) return undefined;
  return { ok: false, error: "missing_scope", needed: needed.join(","), provided: provided.join(",") };
}

/** Whether the method reads a JSON body (else only its form arguments count). */
export function readsJson(method: string): boolean {
  return METHOD_NEEDS[method]?.json ?? true;
}
