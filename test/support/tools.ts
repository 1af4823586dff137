/**
 * @module
 * The local tool server (dev/tools) from tests: the settings that declare its tools to a suite's Worker (as the
 * local stack does, with the confirm-only create_ticket too), and the calls it counted (by tool, by idempotency key,
 * refused).
 */
import { inject } from "vitest";
import type { ToolServerCalls } from "../../dev/tools/server.ts";
import { devToolSettings } from "../../dev/tools/settings.ts";

const TOOL_SERVER_URL = inject("toolServerUrl");

/** The settings of a Worker whose tenants may use `tools`; `secret` signs the HTTP tools' requests. */
export function toolSettings(tools: string, secret?: string): Record<string, string> {
  return { ...devToolSettings(TOOL_SERVER_URL), TOOLS: tools, ...(secret ? { DEV_TOOLS_SECRET: secret } : {}) };
}

export async function toolServerCalls(): Promise<ToolServerCalls> {
  return (await fetch(`${TOOL_SERVER_URL}/__calls`)).json() as Promise<ToolServerCalls>;
}

/** How often the tool server received create_ticket with `title`, per idempotency key (other suites create too). */
export async function createCalls(title: string): Promise<number[]> {
  const calls = await toolServerCalls();
  return Object.entries(calls.createTitles)
    .filter(([, t]) => t === title)
    .map(([key]) => calls.byKey[key] ?? 0);
}
