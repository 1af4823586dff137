/**
 * @module
 * The answered place's history as a tool reads it (read_channel, lib/tools/read-channel.ts): the platform's history
 * capability (lib/platforms/history.ts), always for the job's own place and before its trigger, as backfill asks it
 * (./backfill.ts); the window's length and count are the tool's. The adapter spends the platform's call budget.
 */
import type { ToolContext } from "../tools/tool.ts";
import type { JobScope } from "./scope.ts";

export function placeReader({ job, replier }: JobScope): NonNullable<ToolContext["readPlace"]> {
  return ({ sinceMs, limit }) =>
    replier.readHistory(job, {
      before: { id: job.trigger.id, ts: job.trigger.ts },
      triggerListed: job.reason !== "command",
      since: job.trigger.ts - sinceMs,
      limit,
    });
}
