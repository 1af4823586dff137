/**
 * @module
 * Google's API errors as the Chat API and the token endpoint answer them: the Chat API a google.rpc.Status in JSON
 * (`{"error": {"code", "message", "status"}}`, the HTTP status and its canonical name), the token endpoint
 * RFC 6749's `{"error", "error_description"}`. The messages are Google's where known.
 */
import type { ServerResponse } from "node:http";
import type { FakeFault } from "../faults.ts";
import { sendJson } from "../http.ts";

export class GoogleApiError extends Error {
  readonly code: number;
  readonly status: string;
  constructor(code: number, status: string, message: string) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

export const refusals = {
  unauthenticated: () =>
    new GoogleApiError(
      401,
      "UNAUTHENTICATED",
      "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other " +
        "valid authentication credential.",
    ),
  insufficientScopes: () =>
    new GoogleApiError(403, "PERMISSION_DENIED", "Request had insufficient authentication scopes."),
  /** A space the app is not a member of, or a read an administrator has not approved. */
  noPermission: () => new GoogleApiError(403, "PERMISSION_DENIED", "The caller does not have permission"),
  notFound: () => new GoogleApiError(404, "NOT_FOUND", "Requested entity was not found."),
  invalid: (what: string) => new GoogleApiError(400, "INVALID_ARGUMENT", what),
  exhausted: () =>
    new GoogleApiError(429, "RESOURCE_EXHAUSTED", "Quota exceeded for quota metric 'Write requests' per space."),
};

export function sendGoogleError(res: ServerResponse, err: GoogleApiError): void {
  sendJson(res, err.code, { error: { code: err.code, message: err.message, status: err.status } });
}

/** A scripted refusal: 429 RESOURCE_EXHAUSTED, a server error, or the canonical status given (`error`). */
export function refuseAsGoogle(res: ServerResponse, fault: FakeFault): void {
  if (fault.fault === "ratelimit") {
    const err = refusals.exhausted();
    sendJson(
      res,
      429,
      { error: { code: 429, message: err.message, status: err.status } },
      fault.retryAfter ? { "Retry-After": String(Math.ceil(fault.retryAfter)) } : {},
    );
    return;
  }
  const status = fault.fault === "refuse" ? fault.status : (fault.fault === "error" && fault.status) || 400;
  const name = fault.fault === "error" ? fault.error : status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION";
  sendGoogleError(res, new GoogleApiError(status, name, `scripted ${name}`));
}
