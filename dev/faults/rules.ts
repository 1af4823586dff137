/**
 * @module
 * Scripted faults shared by the fault proxy and the QStash stand-in: rules that match a request (exact path, a
 * substring of the body, a QStash message id), skip the first `after` matches, then fire `times` times, or at a
 * seeded random `rate`; and the record of every fault injected, which tests read back.
 */
import { z } from "zod";
import { seededRandom } from "./seeded-random.ts";

/** What a rule can look at: the request path (no query), the body as text, and for QStash deliveries the message id. */
export interface FaultSubject {
  path: string;
  body: string;
  messageId?: string;
}

/** Fields every rule has, whatever its fault: what it matches and how often it fires. */
const RULE_FIELDS = {
  /** The request path, exactly (`/pipeline`, `/t/suite/jobs/reply`); any path when absent. */
  path: z.string().startsWith("/").optional(),
  messageId: z.string().min(1).optional(),
  bodyContains: z.string().min(1).optional(),
  /** Matching requests that pass unharmed before the rule starts firing. */
  after: z.number().int().min(0).default(0),
  /** How many times the rule fires; 1 by default, unlimited by default with a `rate`. */
  times: z.number().int().positive().optional(),
  /** Fire on this share of the matching requests, drawn from a generator seeded with `seed`: replayable. */
  rate: z.number().gt(0).max(1).optional(),
  seed: z.number().int().default(1),
};

/** One kind of fault: its name in `fault` and the parameters it takes, on top of the shared rule fields. */
export function faultKind<Name extends string, Params extends z.ZodRawShape>(name: Name, params: Params) {
  return z.strictObject({ ...RULE_FIELDS, fault: z.literal(name), ...params });
}

type RuleFields = z.output<z.ZodObject<typeof RULE_FIELDS>>;
export type FaultRuleInput = RuleFields & { fault: string };

export type FaultRule<Input extends FaultRuleInput> = Input & { id: number; remaining: number; skip: number };

/** One injected fault, as `GET /__faults` lists it; the code that injected it may add what it saw (a status). */
export type InjectedFault = { rule: number; fault: string; path: string; messageId?: string; at: number } & Record<
  string,
  string | number | boolean | undefined
>;

const INJECTED_KEPT = 10_000;

export class FaultScript<Input extends FaultRuleInput> {
  readonly #schema: z.ZodType<Input>;
  readonly #clock: (() => number) | undefined;
  #rules: { rule: FaultRule<Input>; random: () => number }[] = [];
  #injected: InjectedFault[] = [];
  #nextId = 1;

  /** `clock` adds `clockAt` to each record: the QStash stand-in's own (possibly virtual) time. */
  constructor(schema: z.ZodType<Input>, clock?: () => number) {
    this.#schema = schema;
    this.#clock = clock;
  }

  /** Adds a rule; throws a ZodError saying what is wrong with it. */
  add(raw: unknown): FaultRule<Input> {
    const input = this.#schema.parse(raw);
    const rule: FaultRule<Input> = {
      ...input,
      id: this.#nextId++,
      remaining: input.times ?? (input.rate === undefined ? 1 : Number.POSITIVE_INFINITY),
      skip: input.after,
    };
    this.#rules.push({ rule, random: seededRandom(input.seed) });
    return rule;
  }

  /**
   * The first rule of one of `kinds` that fires for this request, with its record (to which the caller may add
   * what it saw); undefined when the request goes through unharmed.
   */
  take<Kind extends Input["fault"]>(
    kinds: readonly Kind[],
    subject: FaultSubject,
  ): { rule: FaultRule<Extract<Input, { fault: Kind }>>; record: InjectedFault } | undefined {
    for (const entry of this.#rules) {
      const { rule } = entry;
      if (!(kinds as readonly string[]).includes(rule.fault) || !matches(rule, subject)) continue;
      if (rule.skip > 0) {
        rule.skip -= 1;
        continue;
      }
      if (rule.rate !== undefined && entry.random() >= rule.rate) continue;
      rule.remaining -= 1;
      if (rule.remaining <= 0) this.#rules = this.#rules.filter((e) => e !== entry);
      const record: InjectedFault = { rule: rule.id, fault: rule.fault, path: subject.path, at: Date.now() };
      if (subject.messageId !== undefined) record.messageId = subject.messageId;
      if (this.#clock) record.clockAt = this.#clock();
      this.#injected.push(record);
      if (this.#injected.length > INJECTED_KEPT) this.#injected.shift();
      return { rule: rule as FaultRule<Extract<Input, { fault: Kind }>>, record };
    }
    return undefined;
  }

  /** Rules still waiting to fire. */
  pending(): FaultRule<Input>[] {
    return this.#rules.map((e) => e.rule);
  }

  /** Injected faults whose fields equal every given one (compared as strings, as query parameters come). */
  injected(filter: Iterable<[string, string]> = []): InjectedFault[] {
    const wanted = [...filter];
    return this.#injected.filter((f) => wanted.every(([key, value]) => String(f[key]) === value));
  }

  reset(): void {
    this.#rules = [];
    this.#injected = [];
  }
}

function matches(rule: FaultRuleInput, subject: FaultSubject): boolean {
  return (
    (rule.path === undefined || rule.path === subject.path) &&
    (rule.messageId === undefined || rule.messageId === subject.messageId) &&
    (rule.bodyContains === undefined || subject.body.includes(rule.bodyContains))
  );
}
