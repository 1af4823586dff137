/**
 * @module
 * The Worker settings that give the local stack's tenants the local tool server's tools (docs/tools.md): its ticket
 * lookup as an HTTP tool, its search stand-in as web_search's provider, and TOOLS naming them with the built-ins that
 * need no network (fetch_page would reach the internet: name it in .dev.vars to try it), and its confirm-only
 * create_ticket, which runs only once the person who asked approves it with a ✅ (docs/tools.md).
 */
import { DEV_SEARCH_KEY, DEV_TOOL_SECRET } from "./server.ts";

const DEV_TOOLS = ["lookup_ticket", "create_ticket", "time_in_zone", "web_search", "search_memory", "read_channel"];

export function devToolSettings(origin: string): Record<string, string> {
  const ticketArgs = {
    type: "object",
    properties: { id: { type: "string", description: "the ticket's number" } },
    required: ["id"],
  };
  const createArgs = {
    type: "object",
    properties: { title: { type: "string" }, queue: { type: "string" } },
    required: ["title"],
  };
  return {
    TOOLS: DEV_TOOLS.join(","),
    HTTP_TOOLS: JSON.stringify([
      {
        name: "lookup_ticket",
        description: "Look up an IT ticket by its number.",
        parameters: ticketArgs,
        url: `${origin}/tools/lookup_ticket`,
        secret: "DEV_TOOLS_SECRET",
      },
      {
        name: "create_ticket",
        description: "Create an IT ticket.",
        parameters: createArgs,
        url: `${origin}/tools/create_ticket`,
        secret: "DEV_TOOLS_SECRET",
        confirm: true,
      },
    ]),
    DEV_TOOLS_SECRET: DEV_TOOL_SECRET,
    WEB_SEARCH_URL: `${origin}/search`,
    WEB_SEARCH_API_KEY: DEV_SEARCH_KEY,
  };
}
