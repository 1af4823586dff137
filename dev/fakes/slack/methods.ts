/**
 * @module
 * What each Web API method of the fake needs from its caller, as Slack's method reference says: the bot scopes
 * that let a token call it (any one of them; `conversations.*` by the kind of channel), and whether it reads a
 * JSON body (`oauth.v2.access` takes a form only: a JSON body's arguments are never read). A token without the
 * scope gets Slack's `missing_scope` with `needed` and `provided`. The bot scopes an install gets unless it asks
 * for others are those slack-app-manifest.yaml asks for, read from it.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

const MANIFEST = resolve(import.meta.dirname, "../../../slack-app-manifest.yaml");

/** The bot scopes a Slack app manifest asks for (`oauth_config.scopes.bot`). */
export function manifestBotScopes(manifest = readFileSync(MANIFEST, "utf8")): string[] {
  const list = /^\s{4}bot:\n((?:\s{6}- .+\n)+)/m.exec(manifest)?.[1];
  if (!list) throw new Error("slack-app-manifest.yaml lists no oauth_config.scopes.bot");
  return list
    .split("\n")
    .map((line) => line.replace(/^\s*- /, "").trim())
    .filter(Boolean);
}

let granted: string | undefined;
/** What a workspace grants the app: the scopes its manifest asks for (read once, when the fake first needs it). */
export function defaultGrant(): string {
  granted ??= manifestBotScopes().join(",");
  return granted;
}

interface MethodNeeds {
  /** Any one of these bot scopes lets the token call the method in `channel`. */
  scopes(channel: string): readonly string[];
  json: boolean;
}

const always =
  (...scopes: string[]) =>
  () =>
    scopes;
/** The `*:history` scope of the kind of conversation: public (C), private or group DM (G), DM (D). */
const history = (channel: string): readonly string[] =>
  channel.startsWith("C")
    ? ["channels:history"]
    : channel.startsWith("G")
      ? ["groups:history", "mpim:history"]
      : channel.startsWith("D")
        ? ["im:history"]
        : ["channels:history"];

/** The `*:read` scope of the kind of conversation, as conversations.info's reference lists them. */
const read = (channel: string): readonly string[] =>
  channel.startsWith("G") ? ["groups:read", "mpim:read"] : channel.startsWith("D") ? ["im:read"] : ["channels:read"];

const METHOD_NEEDS: Readonly<Record<string, MethodNeeds>> = {
  "chat.postMessage": { scopes: always("chat:write"), json: true },
  "chat.update": { scopes: always("chat:write"), json: true },
  "chat.postEphemeral": { scopes: always("chat:write"), json: true },
  "chat.startStream": { scopes: always("chat:write"), json: true },
  "chat.appendStream": { scopes: always("chat:write"), json: true },
  "chat.stopStream": { scopes: always("chat:write"), json: true },
  "reactions.add": { scopes: always("reactions:write"), json: true },
  "reactions.remove": { scopes: always("reactions:write"), json: true },
  "conversations.history": { scopes: history, json: true },
  "conversations.replies": { scopes: history, json: true },
  // Both take their arguments as a form only (Slack's reference: application/x-www-form-urlencoded).
  "conversations.info": { scopes: read, json: false },
  "users.info": { scopes: always("users:read"), json: false },
  // Each of its `types` takes its own scope (./conversations.ts); a form only, like conversations.info.
  "users.conversations": { scopes: always(), json: false },
  // One person's DM (a group DM, with mpim:write, is not the fake's).
  "conversations.open": { scopes: always("im:write"), json: true },
  // Slack's changelog of 2026-03-05: chat:write, or assistant:write for the time being.
  "assistant.threads.setStatus": { scopes: always("chat:write", "assistant:write"), json: true },
  "assistant.threads.setSuggestedPrompts": { scopes: always("assistant:write"), json: true },
  "assistant.threads.setTitle": { scopes: always("assistant:write"), json: true },
  "auth.test": { scopes: always(), json: true },
  "oauth.v2.access": { scopes: always(), json: false },
};

/** Slack's `missing_scope` answer when the granted scopes hold none the method needs there; undefined when allowed. */
export function missingScope(
  method: string,
  channel: string,
  granted: string,
): { ok: false; error: "missing_scope"; needed: string; provided: string } | undefined {
  const needed = METHOD_NEEDS[method]?.scopes(channel) ?? [];
  const provided = granted.split(",").filter(Boolean);
  if (needed.length === 0 || needed.some((scope) => provided.includes(scope))) return undefined;
  return { ok: false, error: "missing_scope", needed: needed.join(","), provided: provided.join(",") };
}

/** Whether the method reads a JSON body (else only its form arguments count). */
export function readsJson(method: string): boolean {
  return METHOD_NEEDS[method]?.json ?? true;
}
