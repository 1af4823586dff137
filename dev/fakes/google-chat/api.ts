/**
 * @module
 * The Chat API methods Parley calls, checked as the Chat API reference describes them: `spaces.messages.create`
 * (app authentication: `chat.bot`; only in a space the app is a member of; at most 32,000 bytes; `requestId` makes it
 * idempotent, the first message coming back unchanged; `thread.name` honoured only with a `messageReplyOption`;
 * cards checked as Chat checks them, ./cards.ts; `privateMessageViewer` a user, never with attachments),
 * `spaces.messages.patch` (`updateMask` required, of `text` and `cardsV2`; with app authentication only the app's
 * own messages),
 * `spaces.messages.list` (as the app only with `chat.app.messages.readonly` and an administrator's approval: the
 * fake's `readApproved`; `filter` on `create_time` and `thread.name`, `orderBy`, `pageSize` up to 1,000),
 * `spaces.messages.get` and `media.download` (`?alt=media`). A query parameter or body field the method does not take
 * is refused (Google: "Unknown name"). Writes share each space's quota of 60 a minute (429 RESOURCE_EXHAUSTED).
 */
import type { PastedFile } from "../files.ts";
import type { RateLimiter } from "../rate-limit.ts";
import { checkCards } from "./cards.ts";
import { GoogleApiError, refusals } from "./errors.ts";
import type { TokenEndpoint } from "./oauth.ts";
import { FAKE_APP_USER, type FakeMessage, type FakeSpace, messageResource, type World } from "./world.ts";

const MAX_MESSAGE_BYTES = 32_000;
const BOT = "https://www.googleapis.com/auth/chat.bot";
const READ = "https://www.googleapis.com/auth/chat.app.messages.readonly";
const WRITES_PER_SPACE = { limit: 60, windowMs: 60_000 };

export interface ApiCall {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
  body: string;
}
export type ApiAnswer = { status: number; json: unknown } | { file: PastedFile };

export interface ApiDeps {
  world: World;
  tokens: TokenEndpoint;
  limits: RateLimiter;
  settings: () => { readApproved: boolean; rateLimits: boolean };
  record: (call: Record<string, unknown>) => void;
}

const PATHS: [RegExp, string][] = [
  [/^\/v1\/(spaces\/[A-Za-z0-9_-]+)\/messages$/, "messages"],
  [/^\/v1\/(spaces\/[A-Za-z0-9_-]+)\/messages\/([A-Za-z0-9_.-]+)$/, "message"],
  [/^\/v1\/media\/(.+)$/, "media"],
];

/** Which method a request is, for fault rules and records (`spaces.messages.create`, …); undefined: not the API. */
export function methodOf(method: string, path: string): { name: string; args: string[] } | undefined {
  for (const [pattern, kind] of PATHS) {
    const match = pattern.exec(path);
    if (!match) continue;
    const args = match.slice(1).map(decodeURIComponent);
    if (kind === "messages")
      return { name: method === "POST" ? "spaces.messages.create" : "spaces.messages.list", args };
    if (kind === "message") return { name: method === "PATCH" ? "spaces.messages.patch" : "spaces.messages.get", args };
    return { name: "media.download", args };
  }
  return undefined;
}

export function callApi(deps: ApiDeps, call: ApiCall): ApiAnswer {
  const found = methodOf(call.method, call.path);
  const expected: Record<string, string> = {
    "spaces.messages.create": "POST",
    "spaces.messages.list": "GET",
    "spaces.messages.patch": "PATCH",
    "spaces.messages.get": "GET",
    "media.download": "GET",
  };
  if (!found || expected[found.name] !== call.method) throw refusals.notFound();
  const { world } = deps;
  const [spaceName = "", messageId = ""] = found.args;
  const grant = deps.tokens.authorize(call.authorization, found.name === "spaces.messages.list" ? READ : BOT);
  if (grant instanceof GoogleApiError) throw grant;
  if (found.name === "media.download") {
    onlyParams(call.query, ["alt"]);
    const file = world.files.get(spaceName);
    if (call.query.get("alt") !== "media" || !file) throw refusals.notFound();
    return { file };
  }
  const space = world.spaces.get(spaceName);
  if (!space) throw refusals.notFound();
  if (!space.appMember) throw refusals.noPermission();
  switch (found.name) {
    case "spaces.messages.create":
      return create(deps, space, call);
    case "spaces.messages.patch":
      return patch(deps, space, `${space.name}/messages/${messageId}`, call);
    case "spaces.messages.get": {
      onlyParams(call.query, []);
      const message = world.messages.get(`${space.name}/messages/${messageId}`);
      if (!message) throw refusals.notFound();
      return { status: 200, json: messageResource(message, space) };
    }
    default:
      if (!deps.settings().readApproved) throw refusals.noPermission();
      return { status: 200, json: list(world, space, call.query) };
  }
}

function onlyParams(query: URLSearchParams, allowed: string[]): void {
  for (const key of query.keys())
    if (!allowed.includes(key))
      throw refusals.invalid(`Invalid JSON payload received. Unknown name "${key}": Cannot bind query parameter.`);
}

function bodyOf(call: ApiCall, allowed: string[]): Record<string, unknown> {
  if (Buffer.byteLength(call.body) > MAX_MESSAGE_BYTES)
    throw refusals.invalid("Message exceeds the maximum size of 32,000 bytes.");
  let body: unknown;
  try {
    body = JSON.parse(call.body);
  } catch {
    throw refusals.invalid("Invalid JSON payload received.");
  }
  if (!body || typeof body !== "object" || Array.isArray(body))
    throw refusals.invalid("Invalid JSON payload received.");
  for (const key of Object.keys(body))
    if (!allowed.includes(key)) throw refusals.invalid(`Invalid JSON payload received. Unknown name "${key}"`);
  return body as Record<string, unknown>;
}

function write(deps: ApiDeps, space: FakeSpace, method: string): void {
  if (!deps.settings().rateLimits) return;
  if (!deps.limits.hit(space.name, WRITES_PER_SPACE, method).allowed) throw refusals.exhausted();
}

function create(deps: ApiDeps, space: FakeSpace, call: ApiCall): ApiAnswer {
  onlyParams(call.query, ["requestId", "messageReplyOption", "messageId", "threadKey"]);
  const body = bodyOf(call, ["text", "thread", "cardsV2", "privateMessageViewer"]);
  const text = typeof body.text === "string" ? body.text : "";
  const cardsV2 = body.cardsV2 === undefined ? [] : checkCards(body.cardsV2);
  if (!text.trim() && !cardsV2.length)
    throw refusals.invalid("Message cannot be empty. Discarded message must have text or cards.");
  const privateViewer = viewerOf(body.privateMessageViewer);
  const requestId = call.query.get("requestId");
  const earlier = requestId ? deps.world.requests.get(`${space.name}|${requestId}`) : undefined;
  if (earlier) return { status: 200, json: messageResource(deps.world.messages.get(earlier)!, space) };
  write(deps, space, "spaces.messages.create");
  const option = call.query.get("messageReplyOption") ?? "MESSAGE_REPLY_OPTION_UNSPECIFIED";
  const asked = (body.thread as { name?: unknown } | undefined)?.name;
  const known = typeof asked === "string" && deps.world.inSpace(space.name, asked).length > 0 ? asked : undefined;
  if (option === "REPLY_MESSAGE_OR_FAIL" && !known) throw refusals.notFound();
  const threaded = space.spaceThreadingState === "THREADED_MESSAGES" && option !== "MESSAGE_REPLY_OPTION_UNSPECIFIED";
  const thread = threaded && known ? known : deps.world.newThread(space);
  const message = deps.world.add({
    space: space.name,
    thread,
    threadReply: thread === known,
    sender: FAKE_APP_USER,
    text,
    byApp: true,
    annotations: [],
    attachment: [],
    cardsV2,
    ...(privateViewer ? { privateViewer } : {}),
  });
  if (requestId) deps.world.requests.set(`${space.name}|${requestId}`, message.name);
  deps.record({ route: "spaces.messages.create", space: space.name, thread, name: message.name, text, at: Date.now() });
  return { status: 200, json: messageResource(message, space) };
}

function patch(deps: ApiDeps, space: FakeSpace, name: string, call: ApiCall): ApiAnswer {
  onlyParams(call.query, ["updateMask", "allowMissing"]);
  const mask = call.query.get("updateMask");
  if (!mask) throw refusals.invalid("updateMask is required.");
  const fields = mask.split(",").map((f) => f.trim());
  const other = fields.find((f) => f !== "text" && f !== "cardsV2");
  if (other !== undefined) throw refusals.invalid(`The fake updates text and cardsV2 only, not "${other}".`);
  const body = bodyOf(call, ["text", "name", "cardsV2"]);
  const message = deps.world.messages.get(name);
  if (!message) throw refusals.notFound();
  if (!message.byApp) throw refusals.noPermission();
  const text = fields.includes("text") ? (typeof body.text === "string" ? body.text : "") : message.text;
  const cardsV2 = fields.includes("cardsV2") ? checkCards(body.cardsV2 ?? []) : (message.cardsV2 ?? []);
  if (!text.trim() && !cardsV2.length) throw refusals.invalid("Message cannot be empty.");
  write(deps, space, "spaces.messages.patch");
  updateMessage(message, text, cardsV2);
  deps.record({ route: "spaces.messages.patch", space: space.name, name, text, updateMask: mask, at: Date.now() });
  return { status: 200, json: messageResource(message, space) };
}

/** Sets the message's text and cards, a revision of its text recorded. */
export function updateMessage(message: FakeMessage, text: string, cardsV2: FakeMessage["cardsV2"]): void {
  message.text = text;
  message.cardsV2 = cardsV2 ?? [];
  message.revisions.push({ at: Date.now(), method: "patch", chars: text.length, text });
}

/** A private message's viewer (`{name: "users/…"}`, app authentication only); undefined for everyone's message. */
export function viewerOf(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const name = (value as { name?: unknown } | null)?.name;
  if (typeof name !== "string" || !/^users\/\d+$/.test(name))
    throw refusals.invalid("privateMessageViewer must name a user (users/{user}).");
  return name;
}

const FILTER_PART = /^(create_time\s*([<>])\s*"([^"]+)"|thread\.name\s*=\s*(spaces\/\S+))$/;

function list(world: World, space: FakeSpace, query: URLSearchParams): unknown {
  onlyParams(query, ["filter", "orderBy", "pageSize", "pageToken", "showDeleted"]);
  const tests: ((m: FakeMessage) => boolean)[] = [];
  for (const part of (query.get("filter") ?? "").split(/\s+AND\s+/).filter((p) => p.trim())) {
    const match = FILTER_PART.exec(part.trim());
    const at = match?.[3] ? Date.parse(match[3]) : Number.NaN;
    if (!match || (match[2] && !Number.isFinite(at))) throw refusals.invalid(`Invalid filter: ${part}`);
    if (match[4]) tests.push((m) => m.thread === match[4]);
    else tests.push((m) => (match[2] === ">" ? Date.parse(m.createTime) > at : Date.parse(m.createTime) < at));
  }
  const order = (query.get("orderBy") ?? "create_time ASC").trim();
  if (!/^create_time (ASC|DESC)$/i.test(order)) throw refusals.invalid(`Invalid orderBy: ${order}`);
  const size = Number(query.get("pageSize") ?? 25);
  if (!Number.isInteger(size) || size < 0) throw refusals.invalid("pageSize must be a positive number.");
  const all = world.inSpace(space.name).filter((m) => tests.every((t) => t(m)));
  if (/DESC$/i.test(order)) all.reverse();
  const from = Number(query.get("pageToken") ?? 0);
  const page = all.slice(from, from + Math.min(size || 25, 1_000));
  if (page.length === 0) return {};
  const next = from + page.length < all.length ? { nextPageToken: String(from + page.length) } : {};
  return { messages: page.map((m) => messageResource(m, space)), ...next };
}
