/**
 * @module
 * Drives the fault controls alike wherever they live (from Node tests and from workerd): a QStash stand-in lane
 * (its URL is its control base) and a fault proxy lane (`<url>/__proxy`) both serve `POST /__fail`,
 * `GET /__faults`, `POST /__reset` (dev/faults/control.ts); the platform fakes serve `/__fail` and `/__reset` too.
 */
import type { ProxyFaultRule } from "../../dev/faults/proxy.ts";
import type { InjectedFault } from "../../dev/faults/rules.ts";
import type { QStashFaultRule } from "../../dev/qstash/faults.ts";

export type { InjectedFault, ProxyFaultRule, QStashFaultRule };

/** Adds a rule; fails with the control's own explanation when the rule is not valid. Answers the rule's id. */
export async function scriptFault(controlUrl: string, rule: QStashFaultRule | ProxyFaultRule): Promise<number> {
  const res = await fetch(`${controlUrl}/__fail`, { method: "POST", body: JSON.stringify(rule) });
  const answer = (await res.json()) as { rule?: { id: number }; error?: string };
  if (!res.ok || !answer.rule)
    throw new Error(`scripting a fault at ${controlUrl} failed (${res.status}): ${answer.error}`);
  return answer.rule.id;
}

/** The faults injected so far whose fields equal every entry of `filter` (e.g. `{ fault: "drop_after" }`). */
export async function injectedFaults(
  controlUrl: string,
  filter: Record<string, string> = {},
): Promise<InjectedFault[]> {
  const res = await fetch(`${controlUrl}/__faults?${new URLSearchParams(filter)}`);
  if (!res.ok) throw new Error(`reading the faults at ${controlUrl} failed: ${res.status}`);
  return (await res.json()) as InjectedFault[];
}

/** Drops the pending rules and the record of injected faults. */
export async function resetFaults(controlUrl: string): Promise<void> {
  const res = await fetch(`${controlUrl}/__reset`, { method: "POST" });
  await res.body?.cancel();
  if (!res.ok) throw new Error(`resetting the faults at ${controlUrl} failed: ${res.status}`);
}

/** The SHA-1 Redis names a Lua script by, as the client sends it in EVALSHA. */
async function scriptSha1(script: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-1", new TextEncoder().encode(script));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * A `bodyContains` that matches one Lua script's EVALSHA on keys starting with `firstKeyStart`, whether the client
 * sent it alone or in a pipeline: `"evalsha","<sha1>",<numKeys>,"<firstKeyStart>`.
 */
export async function evalshaMatch(script: string, numKeys: number, firstKeyStart: string): Promise<string> {
  return `"evalsha","${await scriptSha1(script)}",${numKeys},"${firstKeyStart}`;
}
