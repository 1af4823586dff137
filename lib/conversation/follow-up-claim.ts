/**
 * @module
 * The claim of a message that follows an answer rather than answering a person's message (an approved call's
 * result, a cancellation: lib/approvals/continuation.ts): the same claim and reply record as an answer's
 * (./claim-scripts.ts), so that it is posted exactly once across attempts, but without the conversation: no
 * later answer covers it, and an expired conversation does not stop it.
 */
import type { Redis } from "@upstash/redis/cloudflare";
import { claimKey, optOutKey, replyKey } from "../keys.ts";
import type { ConversationKey } from "../message.ts";
import { defineScript } from "../redis-script.ts";
import * as z from "../zod.ts";
import { parseDraft, type Draft } from "./draft.ts";
import { CLAIM_TTL_SECONDS } from "./store-options.ts";

/**
 * Keys: the trigger's `reply` record and `claim`, the person's `optOut` mark. Arguments: the attempt's `token`,
 * the claim's `ttl` (s). `done` when it was posted, `busy` while another attempt holds it; else claimed, with the
 * draft earlier attempts left.
 */
const CLAIM_FOLLOW_UP = defineScript({
  keys: { reply: "key", claim: "key", optOut: "key" },
  args: z.object({ token: z.string(), ttl: z.number() }),
  result: z.object({
    status: z.enum(["done", "busy", "claimed"]),
    retryAfter: z.optional(z.number()),
    draft: z.optional(z.string()),
    optedOut: z.optional(z.boolean()),
  }),
  lua: `
local found = redis.call('MGET', K.reply, K.claim, K.optOut)
if found[1] == 'done' then return cjson.encode({status = 'done'}) end
if found[2] then return cjson.encode({status = 'busy', retryAfter = redis.call('TTL', K.claim)}) end
redis.call('SET', K.claim, A.token, 'EX', A.ttl)
return cjson.encode({status = 'claimed', draft = found[1] or '', optedOut = found[3] ~= false})
`,
});

export type FollowUpClaim =
  | { status: "done" }
  | { status: "busy"; retryAfterSeconds: number }
  | { status: "claimed"; draft: Draft; optedOut: boolean };

export async function claimFollowUp(
  redis: Redis,
  prefix: string,
  key: ConversationKey,
  trigger: { id: string; authorId: string },
  token: string,
): Promise<FollowUpClaim> {
  const result = await CLAIM_FOLLOW_UP.run(
    redis,
    {
      reply: replyKey(prefix, key, trigger.id),
      claim: claimKey(prefix, key, trigger.id),
      optOut: optOutKey(prefix, key, trigger.authorId),
    },
    { token, ttl: CLAIM_TTL_SECONDS },
  );
  if (result.status === "claimed")
    return { status: "claimed", draft: parseDraft(result.draft ?? ""), optedOut: result.optedOut ?? false };
  if (result.status === "busy")
    return { status: "busy", retryAfterSeconds: Math.max(1, result.retryAfter ?? CLAIM_TTL_SECONDS) };
  return { status: "done" };
}
