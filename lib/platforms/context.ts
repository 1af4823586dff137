/**
 * @module
 * The contexts adapters get, built from a runtime. Credentials come from the settings here, and only here: an
 * install store (a token per Slack workspace) replaces `token` without any adapter changing.
 */
import { GiveUp } from "../errors.ts";
import { callBudgetFor } from "../limits/api-budget.ts";
import { optOutsFor } from "../opt-outs.ts";
import type { Runtime } from "../runtime.ts";
import type { AdapterContext, PlatformAdapter, ReplyContext } from "./adapter.ts";

export function adapterContext(rt: Runtime): AdapterContext {
  // Called as a plain function: workerd refuses a fetch called as another object's method.
  return { settings: rt.settings, log: rt.log, now: rt.now, fetch: (input, init) => fetch(input, init) };
}

export function replyContext(rt: Runtime, adapter: Pick<PlatformAdapter, "tokenSetting" | "platform">, tenant: string): ReplyContext {
  const name = adapter.tokenSetting;
  return {
    ...adapterContext(rt),
    tenant,
    async token() {
      const token = rt.settings[name];
      if (!token) throw new GiveUp(`${name} is not set: run \`wrangler secret put ${name}\``, "not_configured");
      return token;
    },
    optOuts: optOutsFor(rt),
    callBudget: callBudgetFor(rt, `${adapter.platform}|${tenant}`),
  };
}
