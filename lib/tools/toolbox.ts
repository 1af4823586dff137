/**
 * @module
 * Every tool this Worker has (the built-ins that are on, the TypeScript tools of ./registry.ts, the HTTP tools of
 * HTTP_TOOLS whose secret is set), built once per env, and which of them a tenant's answers may use (TOOLS: the
 * tenant's own list, else the `"*"` list). A name in TOOLS that no tool has, or an HTTP tool without its secret,
 * is said once in a log line and left out; nothing else changes.
 */
import type { Settings } from "../config.ts";
import type { Logger } from "../log.ts";
import type { Tenancy } from "../keys.ts";
import { fetchPageTool } from "./fetch-page.ts";
import { httpTool } from "./http-tool.ts";
import { TYPESCRIPT_TOOLS } from "./registry.ts";
import { readChannelTool } from "./read-channel.ts";
import { searchMemoryTool } from "./search-memory.ts";
import type { Tool } from "./tool.ts";
import { webSearchTool } from "./web-search.ts";

export class Toolbox {
  readonly #tools: ReadonlyMap<string, Tool>;
  readonly #byTenant: Settings["TOOLS"];

  constructor(tools: readonly Tool[], byTenant: Settings["TOOLS"]) {
    this.#tools = new Map(tools.map((t) => [t.name, t]));
    this.#byTenant = byTenant;
  }

  /** The tools a tenant's answers may use (none unless TOOLS names some). */
  forTenant(where: Tenancy): Tool[] {
    const names = this.#byTenant[`${where.platform}:${where.tenant}`] ?? this.#byTenant["*"] ?? [];
    return names.flatMap((name) => this.#tools.get(name) ?? []);
  }
}

/** The Worker's tools from its settings and env (where the HTTP tools' secrets are). */
export function createToolbox(s: Settings, env: Record<string, unknown>, log: Logger): Toolbox {
  const tools: Tool[] = [
    fetchPageTool,
    readChannelTool,
    ...[searchMemoryTool(s), webSearchTool(s)].flatMap((t) => t ?? []),
    ...TYPESCRIPT_TOOLS,
  ];
  for (const declaration of s.HTTP_TOOLS) {
    const secret = env[declaration.secret];
    if (typeof secret === "string" && secret.length > 0) tools.push(httpTool(declaration, secret));
    else log.error("tool_off", { tool: declaration.name, problem: `its secret ${declaration.secret} is not set` });
  }
  const known = new Set(tools.map((t) => t.name));
  const unknown = [...new Set(Object.values(s.TOOLS).flat())].filter((name) => !known.has(name));
  if (unknown.length > 0)
    log.error("tools_unknown", { tools: unknown, problem: "named in TOOLS but not available (off, or no such tool)" });
  return new Toolbox(tools, s.TOOLS);
}
