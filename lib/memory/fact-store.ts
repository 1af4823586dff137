/**
 * @module
 * Facts about people on Upstash Redis: a small JSON list per person and tenant (oldest first), merged atomically in
 * one Lua script (a new fact replaces the one it contradicts, a restated fact is not stored twice, the list is
 * capped), with a long TTL renewed at each new fact. Each fact keeps where it was learned: its visibility, and for
 * a DM or a private channel the channel itself. A prompt gets a fact only when it was learned in public or in the
 * very place the prompt answers in; facts stored before visibilities existed are never shown and are dropped at the
 * person's next merge. Reading the facts of everyone in a conversation is one MGET.
 */
import type { Redis } from "@upstash/redis/cloudflare";
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

/** A "forget me" holds off memory jobs that were already running for this long (QStash's retries end well before). */
const FORGOTTEN_TTL_SECONDS = 86_400;

/**
 * KEYS: facts, forgotten. ARGV: 1 JSON array of {t: text, n: normalized, r?: normalized text it replaces}, 2 cap,
 * 3 ttl s, 4 now ms, 5 visibility where learned, 6 channel where learned, 7 when the newest source message was
 * written (ms). Returns -1 when the person asked to be forgotten after that, else how many facts they have.
 * A new fact replaces only facts shown where it was learned; restating a public fact keeps it public. An empty
 * list is deleted rather than stored (cjson would write it as `{}`). Touches only its keys, so on Upstash it locks
 * those alone (allow-key-locking).
 */
const MERGE_FACTS = `#!lua flags=allow-key-locking
local key = KEYS[1]
local found = redis.call('MGET', key, KEYS[2])
local raw, forgottenAt = found[1], found[2]
if forgottenAt and tonumber(forgottenAt) >= tonumber(ARGV[7]) then return -1 end
local visibility, channel = ARGV[5], ARGV[6]
local list = {}
if raw then
  for _, old in ipairs(cjson.decode(raw)) do
    if old.v then list[#list + 1] = old end
  end
end
for _, new in ipairs(cjson.decode(ARGV[1])) do
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
  local entry = {t = new.t, n = new.n, at = tonumber(ARGV[4]), v = learned}
  if learned ~= 'public' then entry.c = channel end
  kept[#kept + 1] = entry
  list = kept
end
while #list > tonumber(ARGV[2]) do table.remove(list, 1) end
if #list == 0 then
  redis.call('DEL', key)
  return 0
end
redis.call('SET', key, cjson.encode(list), 'EX', ARGV[3])
return #list
`;

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
  private readonly mergeScript;

  constructor(redis: Redis, options: FactStoreOptions) {
    this.redis = redis;
    this.options = options;
    this.mergeScript = redis.createScript<number>(MERGE_FACTS);
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
    const count = Number(
      await this.mergeScript.exec(
        [factsKey(this.options.prefix, where, personId), forgottenKey(this.options.prefix, where, personId)],
        [
          JSON.stringify(entries),
          String(this.options.perPerson),
          String(this.options.ttlSeconds),
          String(at.now),
          at.learnedIn.visibility,
          at.learnedIn.channel,
          String(at.saidAt),
        ],
      ),
    );
    return count < 0 ? "forgotten" : count;
  }

  /**
   * "Forget me": every fact about the person in the tenant goes, whatever its visibility, and a mark stops memory
   * jobs already running from writing back facts from messages written up to `askedAt`.
   */
  async forget(where: Tenancy, personId: string, askedAt: number): Promise<void> {
    await this.redis
      .multi()
      .set(forgottenKey(this.options.prefix, where, personId), String(askedAt), { ex: FORGOTTEN_TTL_SECONDS })
      .del(factsKey(this.options.prefix, where, personId))
      .exec();
  }
}
