/**
 * @module
 * Scripted faults shared by every fake and the local model: rules that pick some of a route's calls (the next N,
 * or a seeded random share) and what happens to them, and the record of every fault injected, so that tests and
 * invariant checkers can read back what was done where. How a refusal looks on the wire is each fake's business
 * (Slack `ok:false`, Discord JSON codes, Twilio error codes, OpenAI errors); hanging, dropping and delaying are
 * the same everywhere (see ./control.ts).
 */
import { z } from "zod";

/**
 * - `ratelimit`: HTTP 429 with Retry-After (`retryAfter` seconds, default 1), nothing done.
 * - `status`: that HTTP status (e.g. 503), nothing done; `error` is an optional platform code in the body.
 * - `error`: the platform's own error `error` (Slack `ok:false` code, Discord/Twilio numeric code), nothing done.
 * - `hang`: the request is carried out, then no answer ever comes (the client times out).
 * - `drop`: the request is carried out, then the connection is closed without an answer (response lost).
 * - `delay`: the answer comes normally after `delayMs`.
 * - `garbage` (model): a 200 whose body is not JSON (`shape: "not_json"`) or JSON of the wrong shape.
 * - `skip` (model): the answer starts with `[SKIP]` (`text` follows it).
 */
export const faultSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("ratelimit"), retryAfter: z.number().positive().optional(), error: z.string().min(1).optional() }),
  z.strictObject({ kind: z.literal("status"), status: z.number().int().min(400).max(599), error: z.string().min(1).optional() }),
  z.strictObject({ kind: z.literal("error"), error: z.string().min(1), status: z.number().int().min(200).max(599).optional() }),
  z.strictObject({ kind: z.literal("hang") }),
  z.strictObject({ kind: z.literal("drop") }),
  z.strictObject({ kind: z.literal("delay"), delayMs: z.number().int().min(0).max(600_000) }),
  z.strictObject({ kind: z.literal("garbage"), shape: z.enum(["not_json", "wrong_shape"]).default("not_json") }),
  z.strictObject({ kind: z.literal("skip"), text: z.string().default("") }),
]);
export type Fault = z.output<typeof faultSchema>;
export type FaultKind = Fault["kind"];
/** What every fake can do; the local model adds `garbage` and `skip`. */
export const COMMON_FAULT_KINDS: readonly FaultKind[] = ["ratelimit", "status", "error", "hang", "drop", "delay"];

const fieldValue = z.union([z.string(), z.number(), z.boolean()]).transform(String);

export const faultRuleSchema = z
  .strictObject({
    /** The fake's name for the route (e.g. `chat.postMessage`, `channel_message`, `messages.create`, `chat.completions`). */
    route: z.string().min(1).optional(),
    /** Fields of the call that must be equal (as strings), e.g. `{channel: "C1"}`. */
    match: z.record(z.string(), fieldValue).default({}),
    /** Fields of the call that must contain the given text, e.g. `{text: "marker-42"}`. */
    contains: z.record(z.string(), z.string()).default({}),
    /** One fault, or several for a random rule to choose among. */
    fault: z.union([faultSchema, z.array(faultSchema).min(1)]).transform((f) => (Array.isArray(f) ? f : [f])),
    /** Matching calls that pass untouched before the rule starts. */
    after: z.number().int().min(0).default(0),
    /** How many faults the rule injects; unlimited for a random rule without it. */
    times: z.number().int().positive().optional(),
    /** Inject into this share of the matching calls (0–1), drawn from a generator seeded with `seed`. */
    rate: z.number().gt(0).max(1).optional(),
    seed: z.number().int().default(1),
  })
  .refine((r) => r.rate !== undefined || r.fault.length === 1, { message: "several faults need a `rate` to choose among them" });
export type FaultRuleInput = z.input<typeof faultRuleSchema>;

/** A call as a fake describes it for matching: its route and the fields tests may match on. */
export interface FakeCall {
  route: string;
  [field: string]: unknown;
}

/** One fault that was injected, as `GET /__faults` lists it. */
export interface InjectedFault {
  seq: number;
  /** Epoch ms. */
  at: number;
  fake: string;
  route: string;
  rule: number;
  fault: Fault;
  call: FakeCall;
}

interface ActiveRule {
  id: number;
  spec: z.output<typeof faultRuleSchema>;
  passed: number;
  injected: number;
  random: () => number;
}

/** The pending rules of one fake and what they injected. */
export class FaultBook {
  readonly #fake: string;
  readonly #kinds: ReadonlySet<FaultKind>;
  #rules: ActiveRule[] = [];
  #injected: InjectedFault[] = [];
  #nextRule = 1;

  constructor(fake: string, kinds: readonly FaultKind[] = COMMON_FAULT_KINDS) {
    this.#fake = fake;
    this.#kinds = new Set(kinds);
  }

  /** Adds a rule; returns its id, or the reason it was refused (a fault kind this fake cannot do). */
  add(spec: z.output<typeof faultRuleSchema>): number | string {
    const unsupported = spec.fault.find((f) => !this.#kinds.has(f.kind));
    if (unsupported) return `the ${this.#fake} fake cannot inject "${unsupported.kind}" (it can: ${[...this.#kinds].join(", ")})`;
    const id = this.#nextRule++;
    this.#rules.push({ id, spec, passed: 0, injected: 0, random: seededRandom(spec.seed) });
    return id;
  }

  /** The fault to inject into this call, if a rule picks it; recorded as injected. */
  take(call: FakeCall): Fault | undefined {
    for (const rule of this.#rules) {
      if (!matches(rule.spec, call)) continue;
      if (rule.passed < rule.spec.after) {
        rule.passed += 1;
        continue;
      }
      const { rate, fault, times } = rule.spec;
      if (rate !== undefined && rule.random() >= rate) continue;
      const chosen = fault.length === 1 ? fault[0]! : fault[Math.floor(rule.random() * fault.length)]!;
      rule.injected += 1;
      const exhausted = times !== undefined ? rule.injected >= times : rate === undefined;
      if (exhausted) this.#rules = this.#rules.filter((r) => r !== rule);
      this.#injected.push({ seq: this.#injected.length + 1, at: Date.now(), fake: this.#fake, route: call.route, rule: rule.id, fault: chosen, call });
      return chosen;
    }
    return undefined;
  }

  pending(): { id: number; injected: number; rule: z.output<typeof faultRuleSchema> }[] {
    return this.#rules.map((r) => ({ id: r.id, injected: r.injected, rule: r.spec }));
  }

  injected(route?: string): InjectedFault[] {
    return route ? this.#injected.filter((i) => i.route === route) : [...this.#injected];
  }

  reset(): void {
    this.#rules = [];
    this.#injected = [];
  }
}

function matches(spec: z.output<typeof faultRuleSchema>, call: FakeCall): boolean {
  if (spec.route !== undefined && spec.route !== call.route) return false;
  for (const [field, value] of Object.entries(spec.match)) if (String(call[field]) !== value) return false;
  for (const [field, text] of Object.entries(spec.contains)) if (!String(call[field] ?? "").includes(text)) return false;
  return true;
}

/** mulberry32: small, fast and the same sequence for the same seed on every run, so a soak can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
