/**
 * @module
 * A Slack Web API stand-in for tests and `npm run dev`: `POST /api/chat.postMessage` (JSON or form) answers
 * like Slack and records each message it accepts; `/__calls`, `/__fail`, `/__reset` (see ./http.ts) let tests in
 * any process, workerd included, read what was posted and script 429s or `ok:false` errors.
 * Standalone: `node dev/fakes/slack.ts` (SLACK_FAKE_PORT, default 8091).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createFakeControl, readBody, sendJson, startHttpServer, type FailureRule } from "./http.ts";
import { serveStandalone } from "../serve-standalone.ts";

export const DEFAULT_SLACK_FAKE_PORT = 8091;
const API_PREFIX = "/api/";
const POST_MESSAGE_METHOD = "chat.postMessage";
/** Who the fake says posted: tests can feed these back into events to check own-message filtering. */
export const SLACK_FAKE_BOT = { userId: "U0FAKEBOT", botId: "B0FAKEBOT", appId: "A0FAKEAPP", teamId: "T0FAKETEAM" };
const TOKEN_SHAPE = /^xox[bp]-/;
/** Public (C), private (G) and direct (D) conversation ids; anything else is unknown to this workspace. */
const CHANNEL_SHAPE = /^[CGD][A-Z0-9]{2,}$/;
const SLACK_TRUNCATE_CHARS = 40_000;

export interface SlackFakeOptions {
  port: number;
  host?: string;
}

export interface RunningSlackFake {
  /** Base for SLACK_API_BASE_URL, e.g. http://127.0.0.1:8091/api */
  url: string;
  close(): Promise<void>;
}

/** One message the fake accepted, i.e. what people would see in Slack. Refused requests are not recorded. */
export interface RecordedSlackPost extends Record<string, unknown> {
  channel: string;
  text: string;
  thread_ts?: string;
  ts: string;
}

export async function startSlackFake(opts: SlackFakeOptions): Promise<RunningSlackFake> {
  const control = createFakeControl<RecordedSlackPost>();
  const nextTs = messageClock();

  async function postMessage(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const request = await readRequest(req);
    if (!request) return sendJson(res, 200, { ok: false, error: "invalid_json" });
    const { token, params } = request;
    const channel = typeof params.channel === "string" ? params.channel : "";
    const text = typeof params.text === "string" ? params.text : "";
    const threadTs = typeof params.thread_ts === "string" && params.thread_ts ? params.thread_ts : undefined;
    const call = { channel, text, ...(threadTs ? { thread_ts: threadTs } : {}) };
    const refuse = (error: string) => sendJson(res, 200, { ok: false, error });

    if (!token) return refuse("not_authed");
    if (!TOKEN_SHAPE.test(token)) return refuse("invalid_auth");
    const failure = control.takeFailure(call);
    if (failure) return scriptedFailure(res, failure);
    if (!CHANNEL_SHAPE.test(channel)) return refuse("channel_not_found");
    if (!text.trim()) return refuse("no_text");
    if (text.length > SLACK_TRUNCATE_CHARS) return refuse("msg_too_long");

    const ts = nextTs();
    control.record({ ...call, ts });
    sendJson(res, 200, {
      ok: true,
      channel,
      ts,
      message: {
        type: "message",
        text,
        user: SLACK_FAKE_BOT.userId,
        bot_id: SLACK_FAKE_BOT.botId,
        app_id: SLACK_FAKE_BOT.appId,
        team: SLACK_FAKE_BOT.teamId,
        ts,
        ...(threadTs ? { thread_ts: threadTs } : {}),
      },
    });
  }

  const server = await startHttpServer({
    port: opts.port,
    ...(opts.host ? { host: opts.host } : {}),
    async handle(req, res, url) {
      if (await control.handle(req, res, url)) return;
      if (!url.pathname.startsWith(API_PREFIX)) return sendJson(res, 404, { error: "not_found" });
      if (url.pathname.slice(API_PREFIX.length) !== POST_MESSAGE_METHOD) {
        return sendJson(res, 404, { ok: false, error: "unknown_method" });
      }
      if (req.method !== "POST") return sendJson(res, 405, { ok: false, error: "method_not_supported" });
      await postMessage(req, res);
    },
  });
  return { url: `${server.origin}/api`, close: server.close };
}

/**
 * Slack takes JSON with a Bearer token, or a form whose token is in the header or the `token` field.
 * Undefined for malformed JSON (Slack's `invalid_json`).
 */
async function readRequest(
  req: IncomingMessage,
): Promise<{ token?: string; params: Record<string, unknown> } | undefined> {
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
  const raw = await readBody(req);
  if ((req.headers["content-type"] ?? "").includes("application/json")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw || "{}");
    } catch {
      return undefined;
    }
    const params = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {};
    return { ...(bearer ? { token: bearer } : {}), params };
  }
  const params = Object.fromEntries(new URLSearchParams(raw));
  const token = bearer ?? params.token;
  return { ...(token ? { token } : {}), params };
}

function scriptedFailure(res: ServerResponse, rule: FailureRule): void {
  if (rule.status === 429) {
    return sendJson(res, 429, { ok: false, error: "ratelimited" }, { "Retry-After": String(rule.retryAfter ?? 1) });
  }
  if (rule.status !== undefined && rule.status !== 200) {
    res.writeHead(rule.status, { "Content-Type": "text/plain" });
    return void res.end("upstream error");
  }
  sendJson(res, 200, { ok: false, error: rule.error ?? "internal_error" });
}

/** Message timestamps like Slack's: seconds and a 6-digit counter, strictly increasing. */
function messageClock(): () => string {
  let counter = 0;
  return () => {
    counter = (counter + 1) % 1_000_000;
    return `${Math.floor(Date.now() / 1000)}.${String(counter).padStart(6, "0")}`;
  };
}

if (import.meta.main) {
  serveStandalone("slack_fake", () => startSlackFake({ port: Number(process.env.SLACK_FAKE_PORT ?? DEFAULT_SLACK_FAKE_PORT) }));
}
