/**
 * @module
 * A personal digest's platform side (lib/digests/capability.ts) for one job: the adapter of its platform, for its
 * tenant, asked for the person's public channels and their DM; null where the platform has no personal digests.
 */
import type { PersonalPlace } from "../digests/capability.ts";
import type { ReplyTarget } from "../message.ts";
import type { JobPayload as Job } from "../queue/job.ts";
import type { PlatformAdapter } from "./adapter.ts";
import { type PlatformServices, replyContext } from "./context.ts";

export interface PersonalDigestSide {
  places(job: Job): Promise<PersonalPlace[] | null>;
  dm(job: Job): Promise<{ channel: string; target: ReplyTarget } | null>;
}

export function personalDigestSide(rt: PlatformServices, adapters: readonly PlatformAdapter[]): PersonalDigestSide {
  const of = (job: Job) => {
    const adapter = adapters.find((a) => a.platform === job.key.platform);
    const capability = adapter?.personalDigests;
    if (!adapter || !capability) return null;
    return { capability, ctx: replyContext(rt, adapter, job.key.tenant) };
  };
  const who = (job: Job) => ({ tenant: job.key.tenant, person: job.trigger.authorId });
  return {
    async places(job) {
      const side = of(job);
      return side ? side.capability.places(side.ctx, who(job)) : null;
    },
    async dm(job) {
      const side = of(job);
      return side ? side.capability.dm(side.ctx, who(job)) : null;
    },
  };
}
