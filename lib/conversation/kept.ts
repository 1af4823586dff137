/**
 * @module
 * A channel's kept messages (`kept:` in lib/keys.ts), on a platform that cannot be asked what was said in a place
 * (lib/platforms/adapter.ts keepHistory): the ingest script writes them (./scripts.ts INGEST), one a line,
 * `<thread>|<stored message JSON>` (never JSON itself, so that the REST client hands it back as the text it is), the
 * oldest first; a job reads those of its place from before its conversation began (lib/platforms/replier.ts gives
 * them to the platform's history read, lib/platforms/history.ts); "forget me" takes a person's out
 * (lib/memory/forget.ts).
 */
import type { Redis } from "@upstash/redis/cloudflare";
import { keptKey, keptKeyOfPlace, spokeKey, type Tenancy } from "../keys.ts";
import type { ConversationKey, StoredMessage } from "../message.ts";
import { defineScript } from "../redis-script.ts";
import * as z from "../zod.ts";
import { storedMessages } from "./stored-state.ts";

/**
 * Keys: the `kept` list. Arguments: the `person`'s id, `through` (ms). The person's messages written up to then
 * leave it; the list keeps its TTL, or goes when nothing is left. Returns how many left.
 */
const ERASE_KEPT = defineScript({
  keys: { kept: "key" },
  args: z.object({ person: z.string(), through: z.number() }),
  result: z.number(),
  lua: `
local raw = redis.call('GET', K.kept)
if not raw then return 0 end
local kept, removed = {}, 0
for line in string.gmatch(raw, '[^\\n]+') do
  local m = cjson.decode(string.sub(line, string.find(line, '|', 1, true) + 1))
  if m.authorId == A.person and m.ts <= A.through then removed = removed + 1 else kept[#kept + 1] = line end
end
if removed == 0 then return 0 end
if #kept == 0 then redis.call('DEL', K.kept) else redis.call('SET', K.kept, table.concat(kept, '\\n'), 'KEEPTTL') end
return removed
`,
});

export class KeptMessages {
  readonly #redis: Redis;
  readonly #prefix: string;

  constructor(redis: Redis, prefix: string) {
    this.#redis = redis;
    this.#prefix = prefix;
  }

  /** The place's kept messages written in [since, before), the last `limit` of them, oldest first. One GET. */
  async between(
    key: ConversationKey,
    window: { since: number; before: number; limit: number },
  ): Promise<StoredMessage[]> {
    const raw = await this.#redis.get<string>(keptKey(this.#prefix, key));
    if (typeof raw !== "string" || raw === "") return [];
    const thread = key.thread ?? "";
    const lines = raw.split("\n").flatMap((line) => {
      const bar = line.indexOf("|");
      return bar >= 0 && line.slice(0, bar) === thread ? [line.slice(bar + 1)] : [];
    });
    const messages = storedMessages(lines).filter((m) => m.ts >= window.since && m.ts < window.before);
    return window.limit > 0 ? messages.slice(-window.limit) : [];
  }

  /**
   * The person's messages up to `through` (ms) leave the lists of `asked`'s channel and of the channels of their
   * index of places (read before the conversations are erased, which takes places out of it); how many did.
   */
  async eraseEverywhere(where: Tenancy, asked: ConversationKey, personId: string, through: number): Promise<number> {
    const places = await this.#redis.zrange<string[]>(spokeKey(this.#prefix, where, personId), 0, -1);
    const lists = new Set([
      keptKey(this.#prefix, asked),
      ...places.map((place) => keptKeyOfPlace(this.#prefix, place)),
    ]);
    const removed = await Promise.all(
      [...lists].map((kept) => ERASE_KEPT.run(this.#redis, { kept }, { person: personId, through })),
    );
    return removed.reduce((sum, n) => sum + n, 0);
  }
}
