/**
 * @module
 * The local tool server (dev/tools) from tests: the settings that declare its tools to a suite's Worker, and the
 * calls it counted (by tool, by idempotency key, refused).
 */
import { inject } from "vitest";
import { DEV_SEARCH_KEY, DEV_TOOL_SECRET, type ToolServerCalls } from "../../dev/tools/server.ts";

export const TOOL_SERVER_URL = inject("toolServerUrl");

const LOOKUP_TICKET = {
  name: "lookup_ticket",
  description: "Look up an IT ticket by its number.",
  parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  url: `${TOOL_SERVER_URL}/tools/lookup_ticket`,
  secret: "TICKETS_TOOL_SECRET",
};

/** The settings of a Worker whose tenants may use `tools` (the tool server's, the built-ins, the TypeScript ones). */
export function toolSettings(tools: string, secret = DEV_TOOL_SECRET): Record<string, string> {
  return {
    TOOLS: tools,
    HTTP_TOOLS: JSON.stringify([LOOKUP_TICKET]),
    TICKETS_TOOL_SECRET: secret,
    WEB_SEARCH_URL: `${TOOL_SERVER_URL}/search`,
    WEB_SEARCH_API_KEY: DEV_SEARCH_KEY,
  };
}

export async function toolServerCalls(): Promise<ToolServerCalls> {
  return (await fetch(`${TOOL_SERVER_URL}/__calls`)).json() as Promise<ToolServerCalls>;
}
