/**
 * @module
 * Facts about people on Upstash Redis: a small JSON list per person (oldest first), merged atomically in one Lua
 * script (a new fact replaces the one it contradicts, a restated fact is not stored twice, the list is capped), with
 * a long TTL renewed at each new fact. Reading the facts of everyone in a conversation is one MGET.
 */
import type { Redis } from "@upstash/redis/cloudflare";
import * as z from "zod";
import { conversationKeys, factsKey } from "../keys.ts";
import type { ConversationKey } from "../message.ts";
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

export interface FactStoreOptions {
  prefix: string;
  perPerson: number;
  ttlSeconds: number;
}

/**
 * KEYS: facts. ARGV: 1 JSON array of {t: text, n: normalized, r?: normalized text it replaces}, 2 cap, 3 ttl s,
 * 4 now ms. An empty list is deleted rather than stored (cjson would write it as `{}`). Touches only its key, so on
 * Upstash it locks that key alone (allow-key-locking).
 */
const MERGE_FACTS = `#!lua flags=allow-key-locking
local key = KEYS[1]
local list = {}
local raw = redis.call('GET', key)
if raw then list = cjson.decode(raw) end
for _, new in ipairs(cjson.decode(ARGV[1])) do
  local kept = {}
  for _, old in ipairs(list) do
    if old.n ~= new.n and old.n ~= new.r then kept[#kept + 1] = old end
  end
  kept[#kept + 1] = {t = new.t, n = new.n, at = tonumber(ARGV[4])}
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

const storedFactsSchema = z.array(z.object({ t: z.string(), n: z.string(), at: z.number() }));

export class FactStore {
  private readonly redis: Redis;
  private readonly options: FactStoreOptions;
  private readonly mergeScript;

  constructor(redis: Redis, options: FactStoreOptions) {
    this.redis = redis;
    this.options = options;
    this.mergeScript = redis.createScript<number>(MERGE_FACTS);
  }

  /** The facts of each person (oldest first); people with none are absent. One round trip. */
  async load(place: ConversationKey, personIds: string[]): Promise<Map<string, Fact[]>> {
    const found = new Map<string, Fact[]>();
    if (personIds.length === 0) return found;
    const values = await this.redis.mget<unknown[]>(...personIds.map((id) => factsKey(this.options.prefix, place, id)));
    personIds.forEach((id, i) => {
      const raw = values[i];
      if (raw === null || raw === undefined) return;
      const parsed = storedFactsSchema.safeParse(typeof raw === "string" ? JSON.parse(raw) : raw);
      if (parsed.success && parsed.data.length > 0) found.set(id, parsed.data.map((f) => ({ text: f.t, at: f.at })));
    });
    return found;
  }

  /** Merges new facts into what is known about one person; returns how many facts the person now has. */
  async merge(place: ConversationKey, personId: string, facts: NewFact[], now: number): Promise<number> {
    // Case, punctuation and spacing do not make two facts different.
    const entries = facts.map((f) => ({
      t: f.fact,
      n: normalizeWords(f.fact),
      ...(f.replaces ? { r: normalizeWords(f.replaces) } : {}),
    }));
    const count = await this.mergeScript.exec(
      [factsKey(this.options.prefix, place, personId)],
      [JSON.stringify(entries), String(this.options.perPerson), String(this.options.ttlSeconds), String(now)],
    );
    return Number(count);
  }

  /**
   * "Forget me": the person's facts in this tenant and the whole conversation of the place where they asked (their
   * messages, the bot's answers to them, the summary), in one DEL.
   */
  async forget(place: ConversationKey, personId: string): Promise<void> {
    await this.redis.del(factsKey(this.options.prefix, place, personId), ...Object.values(conversationKeys(this.options.prefix, place)));
  }
}
