/**
 * @module
 * Facts about people on Upstash Redis: a small JSON list per person and tenant (oldest first), merged atomically in
 * one Lua script (a new fact replaces the one it contradicts, a restated fact is not stored twice, the list is
 * capped), with a long TTL renewed at each new fact. Each fact keeps where it was learned: its visibility, and for
 * a DM or a private channel the channel itself. A prompt gets a fact only when it was learned in public or in the
 * very place the prompt answers in; facts stored before visibilities existed are never shown and are dropped at the
 * person's next merge. Reading the facts of everyone in a conversation is one MGET. The merge touches only its keys,
 * so on Upstash it locks those alone (allow-key-locking).
 */
import type { Redis } from "@upstash/redis/cloudflare";
import { defineScript } from "../redis-script.ts";
import * as z from "../zod.ts";
import { factsKey, forgottenKey, type Tenancy } from "../keys.ts";
import { VISIBILITIES, type Visibility } from "../message.ts";
import { normalizeWords } from "../text/normalize.ts";

export interface Fact {
  text: string;
  /** When it was last stated, ms since the epoch. */
  at: number;
}

export interface NewFact {
  fact: string;
  /** The known fact this one contradicts, as the model quoted it. */
  replaces?: string;
}

/** Where a fact was learned, or where a prompt answers: its readers, and the channel. */
export interface FactScope {
  visibility: Visibility;
  channel: string;
}

export interface FactStoreOptions {
  prefix: string;
  perPerson: number;
  ttlSeconds: number;
}

/**
 * Keys: the person's `facts` and their `forgotten` mark. Arguments: the `facts` learned ({t: text, n: normalized,
 * r?: normalized text it replaces}), the list's `cap`, its `ttl` (s), `now` (ms), the `visibility` and `channel`
 * where they were learned, and when the newest source message was written (`saidAt`, ms). Returns -1 when the
 * person asked to be forgotten after that, else how many facts they have.
 * A new fact replaces only facts shown where it was learned; restating a public fact keeps it public. An empty
 * list is deleted rather than stored (cjson would write it as `{}`).
 */
const MERGE_FACTS = defineScript({
  keys: { facts: "key", forgotten: "key" },
  args: z.object({
    facts: z.array(z.object({ t: z.string(), n: z.string(), r: z.optional(z.string()) })),
    cap: z.number(),
    ttl: z.number(),
    now: z.number(),
    visibility: z.string(),
    channel: z.string(),
    saidAt: z.number(),
  }),
  result: z.number(),
  lua: `
local found = redis.call('MGET', K.facts, K.forgotten)
local raw, forgottenAt = found[1], found[2]
if forgottenAt and tonumber(forgottenAt) >= A.saidAt then return -1 end
local visibility, channel = A.visibility, A.channel
local list = {}
if raw then
  for _, old in ipairs(cjson.decode(raw)) do
    if old.v then list[#list + 1] = old end
  end
end
for _, new in ipairs(A.facts) do
  local learned = visibility
  local kept = {}
  for _, old in ipairs(list) do
    local shown = old.v == 'public' or old.c == channel
    if shown and (old.n == new.n or old.n == new.r) then
      if old.n == new.n and old.v == 'public' then learned = 'public' end
    else
      kept[#kept + 1] = old
    end
  end
  local entry = {t = new.t, n = new.n, at = A.now, v = learned}
  if learned ~= 'public' then entry.c = channel end
  kept[#kept + 1] = entry
  list = kept
end
while #list > A.cap do table.remove(list, 1) end
if #list == 0 then
  redis.call('DEL', K.facts)
  return 0
end
redis.call('SET', K.facts, cjson.encode(list), 'EX', A.ttl)
return #list
`,
});

const storedFactsSchema = z.array(
  z.object({
    t: z.string(),
    n: z.string(),
    at: z.number(),
    v: z.optional(z.enum(VISIBILITIES)),
    c: z.optional(z.string()),
  }),
);
type StoredFact = z.output<typeof storedFactsSchema>[number];

export function shownIn(fact: Pick<StoredFact, "v" | "c">, scope: FactScope): boolean {
  return fact.v === "public" || (fact.v !== undefined && fact.c === scope.channel);
}

export class FactStore {
  private readonly redis: Redis;
  private readonly options: FactStoreOptions;

  constructor(redis: Redis, options: FactStoreOptions) {
    this.redis = redis;
    this.options = options;
  }

  /** The facts of each person that may be shown in `scope` (oldest first); people with none are absent. One MGET. */
  async load(where: Tenancy, personIds: string[], scope: FactScope): Promise<Map<string, Fact[]>> {
    const found = new Map<string, Fact[]>();
    if (personIds.length === 0) return found;
    const values = await this.redis.mget<unknown[]>(...personIds.map((id) => factsKey(this.options.prefix, where, id)));
    personIds.forEach((id, i) => {
      const raw = values[i];
      if (raw === null || raw === undefined) return;
      const parsed = storedFactsSchema.safeParse(typeof raw === "string" ? JSON.parse(raw) : raw);
      if (!parsed.success) return;
      // A fact learned both here and in public is stored twice: show it once, where it was stated last.
      const byText = new Map<string, Fact>();
      for (const f of parsed.data) {
        if (!shownIn(f, scope)) continue;
        byText.delete(f.n);
        byText.set(f.n, { text: f.t, at: f.at });
      }
      if (byText.size > 0) found.set(id, [...byText.values()]);
    });
    return found;
  }

  /**
   * Merges facts learned in `learnedIn` from messages written up to `saidAt` into what is known about one person.
   * Returns how many facts the person now has, or "forgotten" (nothing written) when they asked to be forgotten
   * after those messages.
   */
  async merge(
    where: Tenancy,
    personId: string,
    facts: NewFact[],
    at: { now: number; saidAt: number; learnedIn: FactScope },
  ): Promise<number | "forgotten"> {
    // Case, punctuation and spacing do not make two facts different.
    const entries = facts.map((f) => ({
      t: f.fact,
      n: normalizeWords(f.fact),
      ...(f.replaces ? { r: normalizeWords(f.replaces) } : {}),
    }));
    const count = await MERGE_FACTS.run(
      this.redis,
      {
        facts: factsKey(this.options.prefix, where, personId),
        forgotten: forgottenKey(this.options.prefix, where, personId),
      },
      {
        facts: entries,
        cap: this.options.perPerson,
        ttl: this.options.ttlSeconds,
        now: at.now,
        visibility: at.learnedIn.visibility,
        channel: at.learnedIn.channel,
        saidAt: at.saidAt,
      },
    );
    return count < 0 ? "forgotten" : count;
  }

  /**
   * "Forget me": every fact about the person in the tenant goes, whatever its visibility. Their forget record
   * (lib/memory/forgotten.ts), written first, stops memory jobs already running from writing facts back.
   */
  async forget(where: Tenancy, personId: string): Promise<void> {
    await this.redis.del(factsKey(this.options.prefix, where, personId));
  }
}
