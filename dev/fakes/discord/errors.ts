/**
 * @module
 * Discord's JSON errors (`{message, code, errors?}`) for what the REST fake checks itself, and scripted refusals:
 * a 429 in Discord's shape (or Cloudflare's HTML one, `error: "cloudflare"`), an HTTP error, a JSON error code.
 */
import type { ServerResponse } from "node:http";
import type { FakeFault } from "../faults.ts";
import { sendJson } from "../http.ts";

const MAX_CONTENT = 2_000;
/** Discord's nonce is an integer or a string of at most 25 characters. */
const MAX_NONCE = 25;
export const DISCORD_ERROR = {
  unauthorized: { status: 401, message: "401: Unauthorized", code: 0 },
  notFound: { status: 404, message: "404: Not Found", code: 0 },
  unknownMessage: { status: 404, message: "Unknown Message", code: 10008 },
  unknownMember: { status: 404, message: "Unknown Member", code: 10007 },
  notAuthor: { status: 403, message: "Cannot edit a message authored by another user", code: 50005 },
  emptyMessage: { status: 400, message: "Cannot send an empty message", code: 50006 },
} as const;

export function sendDiscordError(res: ServerResponse, error: { status: number; message: string; code: number }): void {
  sendJson(res, error.status, { message: error.message, code: error.code });
}

/** 50035 Invalid Form Body, naming the field as Discord does. */
export function sendInvalidFormBody(res: ServerResponse, field: string, code: string, message: string): void {
  sendJson(res, 400, {
    message: "Invalid Form Body",
    code: 50035,
    errors: { [field]: { _errors: [{ code, message }] } },
  });
}

/** Refuses `content` (and `nonce`) that Discord would refuse; true when it answered. */
export function refusedContent(
  res: ServerResponse,
  body: Record<string, unknown>,
  opts: { required: boolean },
): boolean {
  const content = body.content;
  if (content === undefined && !opts.required) return false;
  if (typeof content !== "string" || !content.trim()) {
    sendDiscordError(res, DISCORD_ERROR.emptyMessage);
    return true;
  }
  if (content.length > MAX_CONTENT) {
    sendInvalidFormBody(res, "content", "BASE_TYPE_MAX_LENGTH", `Must be ${MAX_CONTENT} or fewer in length.`);
    return true;
  }
  if (typeof body.nonce === "string" && body.nonce.length > MAX_NONCE) {
    sendInvalidFormBody(res, "nonce", "BASE_TYPE_MAX_LENGTH", `Must be ${MAX_NONCE} or fewer in length.`);
    return true;
  }
  return false;
}

export function refuseAsDiscord(res: ServerResponse, fault: FakeFault): void {
  if (fault.fault === "ratelimit" && fault.error === "cloudflare") {
    res.writeHead(429, {
      "Content-Type": "text/html",
      ...(fault.retryAfter ? { "Retry-After": String(fault.retryAfter) } : {}),
    });
    return void res.end("<html><body>error code: 1015</body></html>");
  }
  if (fault.fault === "ratelimit") {
    // As a route bucket's 429 (./buckets.ts): float seconds in the body, whole ones in Retry-After, the scope.
    const retryAfter = fault.retryAfter ?? 1;
    return sendJson(
      res,
      429,
      { message: "You are being rate limited.", retry_after: retryAfter, global: false },
      {
        "Retry-After": String(Math.max(1, Math.ceil(retryAfter))),
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset-After": retryAfter.toFixed(3),
        "X-RateLimit-Scope": "user",
      },
    );
  }
  if (fault.fault === "refuse")
    return sendJson(res, fault.status, {
      message: `${fault.status}: scripted failure`,
      code: Number(fault.error ?? 0) || 0,
    });
  if (fault.fault === "error")
    sendJson(res, fault.status ?? 400, { message: `scripted error ${fault.error}`, code: Number(fault.error) || 0 });
}
