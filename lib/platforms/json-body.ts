/**
 * @module
 * A webhook body that must be JSON, decoded for a platform's parse step (Slack's events, Discord's interactions).
 */

export type JsonBody = { ok: true; value: unknown } | { ok: false; issues: string };

export function jsonBody(rawBody: string): JsonBody {
  try {
    return { ok: true, value: JSON.parse(rawBody) };
  } catch {
    return { ok: false, issues: "(root): body is not JSON" };
  }
}
