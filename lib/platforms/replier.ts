/**
 * @module
 * The platforms as the job flow sees them (the pipeline's Replier): each job's answer goes to the adapter of its
 * reply target's platform, with the target checked against that adapter's schema and the job's tenant in context.
 */
import { GiveUp } from "../errors.ts";
import type { Replier } from "../pipeline.ts";
import type { Job } from "../queue/job.ts";
import type { Runtime } from "../runtime.ts";
import type { PlatformAdapter } from "./adapter.ts";
import { replyContext } from "./context.ts";

const answerFor = (job: Job) => ({ triggerId: job.trigger.id, authorId: job.trigger.authorId });

export function platformReplier(rt: Runtime, adapters: readonly PlatformAdapter[]): Replier {
  const byPlatform = new Map(adapters.map((adapter) => [adapter.platform, adapter]));
  const open = (job: Job) => {
    const adapter = byPlatform.get(job.replyTarget.platform);
    if (!adapter) throw new GiveUp(`no adapter for platform ${job.replyTarget.platform}`, "unknown_platform");
    return { adapter, ctx: replyContext(rt, adapter, job.key.tenant), target: adapter.replyTargetSchema.parse(job.replyTarget) };
  };
  return {
    canReach(job) {
      const { adapter, ctx, target } = open(job);
      return adapter.canReach(ctx, target);
    },
    send(job, text, progress) {
      const { adapter, ctx, target } = open(job);
      return adapter.send(ctx, target, text, progress);
    },
    placeVisibility(job) {
      const { adapter, ctx } = open(job);
      return adapter.placeVisibility(ctx, job.key);
    },
    async fetchParent(job, replyToId) {
      const { adapter, ctx } = open(job);
      if (!adapter.fetchParent || (!replyToId && !adapter.placeParents)) return undefined;
      return adapter.fetchParent(ctx, { place: job.key, bot: job.bot, ...(replyToId ? { replyToId } : {}) });
    },
    streaming(job) {
      const { adapter, ctx, target } = open(job);
      const streaming = adapter.streaming;
      if (!streaming) return null;
      return {
        maxChars: streaming.maxChars,
        intervalMs: streaming.intervalMs,
        open: (text, unsure) => streaming.open(ctx, target, text, { ...answerFor(job), ...(unsure ? { unsure } : {}) }),
        resume: (state) => streaming.resume(ctx, target, state, answerFor(job)),
      };
    },
    async working(job, sign = {}) {
      const { adapter, ctx, target } = open(job);
      return adapter.working ? adapter.working(ctx, target, { ...answerFor(job), ...sign }) : { stop: async () => undefined };
    },
  };
}
