/**
 * @module
 * The claim of a message that follows an answer rather than answering a person's message (an approved call's
 * result, a cancellation: lib/jobs/approval-job.ts): the same claim and reply record as an answer's
 * (./claim-scripts.ts), so that it is posted exactly once across attempts, but without the conversation: no
 * later answer covers it, and an expired conversation does not stop it.
 */
import type { Redis } from "@upstash/redis/cloudflare";
import { claimKey, optOutKey, replyKey } from "../keys.ts";
import type { ConversationKey } from "../message.ts";
import * as z from "../zod.ts";
import { parseDraft, type Draft } from "./draft.ts";
import { CLAIM_TTL_SECONDS } from "./reply-store.ts";

/**
 * KEYS: reply record, claim, the person's opt-out mark. ARGV: 1 the attempt's token, 2 claim ttl s. `done` when it
 * was posted, `busy` while another attempt holds it; else claimed, with the draft earlier attempts left.
 */
const CLAIM_FOLLOW_UP = `#!lua flags=allow-key-locking
local found = redis.call('MGET', KEYS[1], KEYS[2], KEYS[3])
if found[1] == 'done' then return cjson.encode({status = 'done'}) end
if found[2] then return cjson.encode({status = 'busy', retryAfter = redis.call('TTL', KEYS[2])}) end
redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[2])
return cjson.encode({status = 'claimed', draft = found[1] or '', optedOut = found[3] ~= false})
`;

const resultSchema = z.object({
  status: z.enum(["done", "busy", "claimed"]),
  retryAfter: z.optional(z.number()),
  draft: z.optional(z.string()),
  optedOut: z.optional(z.boolean()),
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
  const raw = await redis.eval<string[], unknown>(
    CLAIM_FOLLOW_UP,
    [replyKey(prefix, key, trigger.id), claimKey(prefix, key, trigger.id), optOutKey(prefix, key, trigger.authorId)],
    [token, String(CLAIM_TTL_SECONDS)],
  );
  const result = resultSchema.parse(typeof raw === "string" ? JSON.parse(raw) : raw);
  if (result.status === "claimed")
    return { status: "claimed", draft: parseDraft(result.draft ?? ""), optedOut: result.optedOut ?? false };
  if (result.status === "busy")
    return { status: "busy", retryAfterSeconds: Math.max(1, result.retryAfter ?? CLAIM_TTL_SECONDS) };
  return { status: "done" };
}
