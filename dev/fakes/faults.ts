/**
 * @module
 * The faults the platform fakes and the local model can inject, as rules of the stack's fault scripts
 * (dev/faults/rules.ts: `after`, `times`, a seeded random `rate`, the record of what was injected), so that the
 * fakes are scripted and read back exactly like the fault proxy and the QStash stand-in. A fake names each call
 * by its route (`path` = `/<route>`, e.g. `/chat.postMessage`, `/channel_message`, `/messages.create`,
 * `/chat.completions`) and its fields (`bodyContains` matches their JSON, e.g. `"channel":"C0F1"`).
 * How a refusal looks on the wire is each fake's business (Slack `ok:false`, Discord JSON codes, Twilio error
 * codes, OpenAI errors); hanging, dropping and delaying are the same everywhere (./control.ts).
 */
import { z } from "zod";
import { faultKind, type FaultRule, type FaultSubject } from "../faults/rules.ts";

/**
 * - `ratelimit`: HTTP 429 with Retry-After (`retryAfter` seconds, default 1), nothing done.
 * - `refuse`: that HTTP status (default 500), nothing done; `error` is an optional platform code in the body.
 * - `error`: the platform's own error `error` (Slack `ok:false` code, Discord/Twilio numeric code), nothing done.
 * - `drop_before`: the connection closes at once, nothing done.
 * - `hang`: the request is carried out, then no answer ever comes (the client times out).
 * - `drop_after`: the request is carried out, then the connection closes without an answer (response lost).
 * - `delay`: the answer comes normally after `delayMs`.
 * - `garbage`: the request is carried out, then a 200 whose body is not JSON (`shape: "not_json"`) or JSON of the
 *   wrong shape (`body`, default `{"ok": true}`: a Slack answer without its fields); the local model answers its own.
 * - `skip` (local model): the answer starts with `[SKIP]` (`text` follows it).
 */
export const fakeFaultSchema = z.discriminatedUnion("fault", [
  faultKind("ratelimit", { retryAfter: z.number().positive().optional(), error: z.string().min(1).optional() }),
  faultKind("refuse", { status: z.number().int().min(400).max(599).default(500), error: z.string().min(1).optional() }),
  faultKind("error", { error: z.string().min(1), status: z.number().int().min(200).max(599).optional() }),
  faultKind("drop_before", {}),
  faultKind("hang", {}),
  faultKind("drop_after", {}),
  faultKind("delay", { delayMs: z.number().int().min(0).max(600_000) }),
  faultKind("garbage", {
    shape: z.enum(["not_json", "wrong_shape"]).default("not_json"),
    body: z.unknown().optional(),
  }),
  faultKind("skip", { text: z.string().default("") }),
]);
export type FakeFault = FaultRule<z.output<typeof fakeFaultSchema>>;
export type FakeFaultKind = FakeFault["fault"];
/** What every fake can do; the local model adds `skip`. */
export const PLATFORM_FAULT_KINDS: readonly FakeFaultKind[] = [
  "ratelimit",
  "refuse",
  "error",
  "drop_before",
  "hang",
  "drop_after",
  "delay",
  "garbage",
];
export const REFUSALS: ReadonlySet<FakeFaultKind> = new Set(["ratelimit", "refuse", "error"]);

/** A call as a fake describes it for the rules: its route and the fields rules may match. */
export interface FakeCall {
  route: string;
  [field: string]: unknown;
}

export function faultSubject({ route, ...fields }: FakeCall): FaultSubject {
  return { path: `/${route}`, body: JSON.stringify(fields) };
}

/** Fields of the call kept in the record of an injected fault (long texts left out). */
export function recordFields({ route, ...fields }: FakeCall): Record<string, string> {
  const kept = Object.entries(fields).filter(
    ([, v]) => (typeof v === "string" && v.length <= 200) || typeof v === "number" || typeof v === "boolean",
  );
  return { route, ...Object.fromEntries(kept.map(([k, v]) => [k, String(v)])) };
}

const legacyRuleSchema = z.looseObject({
  status: z.number().int().min(100).max(599).optional(),
  retryAfter: z.number().positive().optional(),
  error: z.string().min(1).optional(),
  after: z.number().int().min(0).default(0),
  times: z.number().int().positive().default(1),
  route: z.string().min(1).optional(),
});

/**
 * The fakes' older `/__fail` shorthand, `{...oneFieldToMatch, route?, status?, retryAfter?, error?, after?, times?}`,
 * as a rule: 429 → `ratelimit`, an `error` → `error`, another status → `refuse`; or what is wrong with it.
 */
export function legacyRule(body: unknown, defaultRoute: string | undefined): { rule?: unknown; problem?: string } {
  const parsed = legacyRuleSchema.safeParse(body);
  if (!parsed.success) return { problem: z.prettifyError(parsed.error) };
  const { status, retryAfter, error, after, times, route, ...match } = parsed.data;
  const fields = Object.entries(match);
  if (fields.length > 1)
    return {
      problem: `the shorthand matches one field, got ${fields.map(([k]) => k).join(", ")}: use {fault, path, bodyContains}`,
    };
  const onRoute = route ?? defaultRoute;
  const where = {
    ...(onRoute ? { path: `/${onRoute}` } : {}),
    ...(fields[0] ? { bodyContains: JSON.stringify({ [fields[0][0]]: String(fields[0][1]) }).slice(1, -1) } : {}),
    after,
    times,
  };
  if (status === 429)
    return {
      rule: {
        ...where,
        fault: "ratelimit",
        ...(retryAfter !== undefined ? { retryAfter } : {}),
        ...(error ? { error } : {}),
      },
    };
  if (error) return { rule: { ...where, fault: "error", error, ...(status !== undefined ? { status } : {}) } };
  return { rule: { ...where, fault: "refuse", status: status ?? 500 } };
}
