/**
 * @module
 * How Slack's Web API reads a request: `application/x-www-form-urlencoded` or `application/json`, the token from
 * `Authorization: Bearer` or the `token` field, and (as the official clients send them) form fields holding
 * arrays or objects as JSON text (`chunks`, `blocks`, `metadata`, `loading_messages`, `prompts`, ...).
 */
import type { IncomingMessage } from "node:http";
import { readBody } from "../http.ts";

/** Fields whose value is an array or an object: a form carries them JSON-encoded. */
const JSON_FIELDS: ReadonlySet<string> = new Set([
  "chunks",
  "blocks",
  "attachments",
  "metadata",
  "loading_messages",
  "prompts",
]);

export type SlackParams = Record<string, unknown>;

export interface SlackRequest {
  token?: string;
  /** HTTP Basic credentials, which oauth.v2.access accepts for the client id and secret. */
  basic?: { user: string; password: string };
  params: SlackParams;
}

/**
 * Undefined for a body that does not parse (Slack's `invalid_json` / `invalid_form_data`). A method that takes no
 * JSON (`json` false) reads none of a JSON body's arguments, as Slack does.
 */
export async function readSlackRequest(req: IncomingMessage, json = true): Promise<SlackRequest | undefined> {
  const authorization = req.headers.authorization ?? "";
  const bearer = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
  const basic = basicCredentials(authorization);
  const raw = await readBody(req);
  let params: SlackParams;
  if ((req.headers["content-type"] ?? "").includes("application/json")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw || "{}");
    } catch {
      return undefined;
    }
    params =
      json && typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as SlackParams) : {};
  } else {
    params = Object.fromEntries(
      [...new URLSearchParams(raw)].map(([key, value]) => [key, JSON_FIELDS.has(key) ? jsonOrText(value) : value]),
    );
  }
  const token = bearer ?? (typeof params.token === "string" && params.token ? params.token : undefined);
  return { params, ...(token ? { token } : {}), ...(basic ? { basic } : {}) };
}

function jsonOrText(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function basicCredentials(authorization: string): { user: string; password: string } | undefined {
  const encoded = /^Basic\s+(\S+)$/i.exec(authorization)?.[1];
  if (!encoded) return undefined;
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? undefined : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** A string argument; numbers count too (forms and JSON may carry `ts`-like values either way). */
export function textParam(params: SlackParams, name: string): string | undefined {
  const value = params[name];
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  return undefined;
}

/** Slack's booleans arrive as `true`, `"true"` or `"1"`. */
export function flagParam(params: SlackParams, name: string): boolean {
  const value = params[name];
  return value === true || value === "true" || value === "1" || value === 1;
}
