/**
 * @module
 * The contexts adapters get, built from a runtime. Credentials come from here only: a tenant's installation when
 * the platform is installable (lib/tenants/token.ts, refreshed before expiry), else the settings' token.
 */
import { GiveUp } from "../errors.ts";
import { callBudgetFor } from "../limits/api-budget.ts";
import { optOutsFor } from "../opt-outs.ts";
import { installedToken, type TokenServices } from "../tenants/token.ts";
import type { AdapterContext, PlatformAdapter, ReplyContext } from "./adapter.ts";

/** What the platforms' contexts are built from: the stores' services and the tenants' installations. */
export type PlatformServices = TokenServices;

export function adapterContext(rt: PlatformServices): AdapterContext {
  // Called as a plain function: workerd refuses a fetch called as another object's method.
  return { settings: rt.settings, log: rt.log, now: rt.now, fetch: (input, init) => fetch(input, init) };
}

export function replyContext(rt: PlatformServices, adapter: Pick<PlatformAdapter, "platform" | "tokenSetting" | "installs">, tenant: string): ReplyContext {
  const name = adapter.tokenSetting;
  const ctx = adapterContext(rt);
  const installs = adapter.installs;
  return {
    ...ctx,
    tenant,
    async token() {
      if (installs?.enabled(rt.settings)) return installedToken(rt, adapter.platform, tenant, (refresh) => installs.refresh(ctx, refresh));
      const token = rt.settings[name];
      if (!token) throw new GiveUp(`${name} is not set: run \`wrangler secret put ${name}\``, "not_configured");
      return token;
    },
    optOuts: optOutsFor(rt),
    callBudget: callBudgetFor(rt, `${adapter.platform}|${tenant}`),
  };
}
