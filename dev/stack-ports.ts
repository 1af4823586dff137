/**
 * @module
 * The ports of the `npm run dev` stack, each with the setting that moves it. The launcher reads them; they are
 * never Worker settings (dev-vars.ts keeps them out of the Worker's bindings), and the browser tests move them all
 * to free ports to run a stack of their own beside a developer's.
 */

export const STACK_PORTS = {
  worker: { setting: "PORT", fallback: 8787, what: "the Worker" },
  inspector: { setting: "INSPECTOR_PORT", fallback: 9229, what: "wrangler's debugger (inspector)" },
  redisRest: { setting: "REDIS_REST_PORT", fallback: 8079, what: "the Upstash Redis REST bridge" },
  qstash: { setting: "QSTASH_PORT", fallback: 8080, what: "the QStash stand-in" },
  vector: { setting: "VECTOR_PORT", fallback: 8095, what: "the Upstash Vector stand-in" },
  model: { setting: "LOCAL_MODEL_PORT", fallback: 8090, what: "the local model" },
  slack: { setting: "SLACK_FAKE_PORT", fallback: 8091, what: "the Slack fake" },
  discord: { setting: "DISCORD_FAKE_PORT", fallback: 8092, what: "the Discord fake" },
  twilio: { setting: "TWILIO_FAKE_PORT", fallback: 8093, what: "the Twilio fake" },
  discordGateway: { setting: "DISCORD_GATEWAY_FAKE_PORT", fallback: 8094, what: "the Discord Gateway fake" },
  telegram: { setting: "TELEGRAM_FAKE_PORT", fallback: 8096, what: "the Telegram fake" },
  googleChat: { setting: "GOOGLE_CHAT_FAKE_PORT", fallback: 8098, what: "the Google Chat fake" },
  teams: { setting: "TEAMS_FAKE_PORT", fallback: 8099, what: "the Teams fake" },
  tools: { setting: "TOOL_SERVER_PORT", fallback: 8097, what: "the local tool server" },
  simulator: { setting: "SIMULATOR_PORT", fallback: 8788, what: "the simulator page" },
} as const;

export type StackPart = keyof typeof STACK_PORTS;

export const PORT_SETTINGS: ReadonlySet<string> = new Set(Object.values(STACK_PORTS).map((p) => p.setting));

/** Every port of the stack from `env`; throws, naming the setting, when one is not a port number. */
export function stackPorts(env: Record<string, string | undefined>): Record<StackPart, number> {
  const ports = {} as Record<StackPart, number>;
  for (const [part, { setting, fallback }] of Object.entries(STACK_PORTS) as [
    StackPart,
    (typeof STACK_PORTS)[StackPart],
  ][]) {
    const raw = env[setting];
    const port = raw === undefined || raw === "" ? fallback : Number(raw);
    if (!Number.isInteger(port) || port < 1 || port > 65_535)
      throw new Error(`${setting} must be a port number (1-65535), not "${raw}"`);
    ports[part] = port;
  }
  return ports;
}
