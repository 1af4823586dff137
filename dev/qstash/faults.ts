/**
 * @module
 * The faults the QStash stand-in can inject (scripted with `POST /__fail`, see dev/faults/control.ts):
 * at publish, `refuse_publish` (5xx, nothing stored) and `drop_after_store` (stored, then the connection is dropped:
 * the client sees an error for a message that will be delivered); at delivery, `duplicate` (the destination gets
 * the message twice, at once or one after the other; the first answer settles it), `late` (the attempt is put off
 * by `delayMs` of the stand-in's clock) and `lose_answer` (the destination answered, the stand-in acts as if it
 * had not and retries). Rules match the destination's path, a substring of the body and the message id.
 */
import { z } from "zod";
import { faultKind, FaultScript, type FaultSubject } from "../faults/rules.ts";
import type { AttemptResult } from "./delivery.ts";
import type { StoredMessage } from "./message.ts";

const qstashFaultSchema = z.discriminatedUnion("fault", [
  faultKind("refuse_publish", { status: z.number().int().min(500).max(599).default(500) }),
  faultKind("drop_after_store", {}),
  faultKind("duplicate", { concurrent: z.boolean().default(true) }),
  faultKind("late", { delayMs: z.number().int().positive() }),
  faultKind("lose_answer", {}),
]);

type QStashFault = z.output<typeof qstashFaultSchema>;
/** A rule as `POST /__fail` takes it. */
export type QStashFaultRule = z.input<typeof qstashFaultSchema>;
export type QStashFaults = FaultScript<QStashFault>;

export const PUBLISH_FAULTS = ["refuse_publish", "drop_after_store"] as const;

/** A publish is matched on its destination and body: its message id is not known to the publisher yet. */
export function publishSubject(message: StoredMessage): FaultSubject {
  return { path: new URL(message.url).pathname, body: Buffer.from(message.bodyBase64, "base64").toString("utf8") };
}

export function deliverySubject(message: StoredMessage): FaultSubject {
  return { ...publishSubject(message), messageId: message.messageId };
}

/**
 * One delivery attempt with the delivery faults that fire for it: a duplicate goes out too (its answer is recorded
 * but settles nothing, as when QStash delivers a message twice), and a lost answer comes back as a failure.
 */
export async function attemptWithFaults(
  faults: QStashFaults,
  message: StoredMessage,
  attempt: () => Promise<AttemptResult>,
): Promise<AttemptResult> {
  const subject = deliverySubject(message);
  const duplicate = faults.take(["duplicate"], subject);
  const lost = faults.take(["lose_answer"], subject);
  let result: AttemptResult;
  if (duplicate?.rule.concurrent) {
    const [first, copy] = await Promise.all([attempt(), attempt()]);
    duplicate.record.copyStatus = statusOf(copy);
    result = first;
  } else {
    result = await attempt();
    if (duplicate) duplicate.record.copyStatus = statusOf(await attempt());
  }
  if (!lost) return result;
  lost.record.status = statusOf(result);
  return { kind: "error", reason: "network", detail: "the destination's answer was lost (injected fault)" };
}

function statusOf(result: AttemptResult): number {
  return result.kind === "response" ? result.status : 0;
}

export function createQStashFaults(clock: () => number): QStashFaults {
  return new FaultScript(qstashFaultSchema, clock);
}
