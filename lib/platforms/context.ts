/**
 * @module
 * The contexts adapters get, built from the runtime's services: the core's settings and the platform's own.
 * Credentials come from here only: a tenant's installation when the platform is installable (lib/tenants/token.ts,
 * refreshed before expiry), else the platform's token setting.
 */
import { GiveUp } from "../errors.ts";
import type { BudgetWatch, CallBudgets } from "../limits/api-budget.ts";
import type { OptOuts } from "../opt-outs.ts";
import { installedToken, type TokenServices } from "../tenants/token.ts";
import type { AdapterContext, PlatformAdapter, ReplyContext } from "./adapter.ts";
import type { ConfiguredPlatforms } from "./configured.ts";

/** What the platforms' contexts are built from: the services, the stores they use and the platforms' settings. */
export type PlatformServices = TokenServices & {
  platforms: ConfiguredPlatforms;
  optOuts: OptOuts;
  callBudgets: CallBudgets;
};

/** An adapter as its contexts need it: its name, its settings, and how it is installed if it is. */
type AdapterSettings<Config> = Pick<PlatformAdapter<never, never, Config>, "platform" | "settings" | "installs">;

export function adapterContext<Config>(rt: PlatformServices, adapter: AdapterSettings<Config>): AdapterContext<Config> {
  // Called as a plain function: workerd refuses a fetch called as another object's method.
  return {
    settings: rt.settings,
    config: rt.platforms.configOf(adapter),
    log: rt.log,
    now: rt.now,
    fetch: (input, init) => fetch(input, init),
  };
}

export function replyContext<Config>(
  rt: PlatformServices,
  adapter: AdapterSettings<Config>,
  tenant: string,
  watch?: BudgetWatch,
): ReplyContext<Config> {
  const ctx = adapterContext(rt, adapter);
  const { installs, settings } = adapter;
  return {
    ...ctx,
    tenant,
    async token() {
      if (installs?.enabled(ctx.config))
        return installedToken(rt, adapter.platform, tenant, (refresh) => installs.refresh(ctx, refresh));
      const token = settings.token(ctx.config);
      if (!token)
        throw new GiveUp(
          `${settings.tokenSetting} is not set: run \`wrangler secret put ${settings.tokenSetting}\``,
          "not_configured",
        );
      return token;
    },
    optOuts: rt.optOuts,
    callBudget: rt.callBudgets.of(`${adapter.platform}|${tenant}`, watch),
  };
}
