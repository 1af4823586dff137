/**
 * @module
 * Which platforms this Worker serves, each with its own settings read from the env (PlatformAdapter.settings):
 * `on`, `off` (the secrets its webhook needs are not set; what else it can do, such as a Discord Gateway
 * connection with the bot token alone, still has its settings) or `misconfigured` (an essential setting of its is
 * malformed: it stays off, and its route says which settings, never their values). Read once per runtime.
 */
import { GiveUp } from "../errors.ts";
import type { Platform } from "../message.ts";
import type { SettingProblem } from "../settings-schema.ts";
import type { PlatformAdapter, PlatformSettings } from "./adapter.ts";

export type PlatformState =
  | { status: "on" | "off"; config: unknown; ignored: SettingProblem[] }
  | { status: "misconfigured"; problems: SettingProblem[] };

export class ConfiguredPlatforms {
  readonly #states: Map<Platform, PlatformState>;

  constructor(adapters: readonly PlatformAdapter[], env: Record<string, unknown>) {
    this.#states = new Map(adapters.map((adapter) => [adapter.platform, stateOf(adapter, env)]));
  }

  state(platform: Platform): PlatformState {
    return this.#states.get(platform) ?? { status: "misconfigured", problems: [] };
  }

  isOn(platform: Platform): boolean {
    return this.state(platform).status === "on";
  }

  /** Whether each platform is on, as the health route shows it. */
  summary(): Record<string, boolean> {
    return Object.fromEntries([...this.#states].map(([platform, state]) => [platform, state.status === "on"]));
  }

  /** The platform's own settings (a job for a misconfigured platform ends for good). */
  configOf<Config>(adapter: { platform: Platform; settings: PlatformSettings<Config> }): Config {
    const state = this.state(adapter.platform);
    if (state.status === "misconfigured") throw new GiveUp(`${adapter.platform} is misconfigured`, "not_configured");
    return state.config as Config;
  }
}

function stateOf(adapter: PlatformAdapter, env: Record<string, unknown>): PlatformState {
  const read = adapter.settings.read(env);
  if (read.essential.length > 0) return { status: "misconfigured", problems: read.essential };
  return {
    status: adapter.settings.enabled(read.settings) ? "on" : "off",
    config: read.settings,
    ignored: read.ignored,
  };
}
