/**
 * @module
 * The settings of tools (docs/tools.md), spread into the core's settings (./config.ts): which tools each tenant's
 * answers may use (TOOLS), the HTTP tools a deployer declares (HTTP_TOOLS), the loop's bound and follow-up model,
 * and the built-ins' limits. A malformed TOOLS or HTTP_TOOLS reads as no tools (and is named in `ignored`), never
 * as the bot stopping; a malformed FETCH_ALLOWED_HOSTS or FETCH_DENIED_HOSTS turns off fetch_page alone.
 */
import * as z from "./zod.ts";
import { optionalText, url } from "./settings-schema.ts";

/** A tool's name as OpenAI takes it (`^[a-zA-Z0-9_-]{1,64}$`). */
const toolName = z.string().check(z.regex(/^[a-zA-Z0-9_-]{1,64}$/, "a tool name is 1-64 letters, digits, _ or -"));

/** Which tools a tenant's answers may use: `"*"` for every tenant, `"<platform>:<tenant id>"` for one (it wins). */
type ToolsByTenant = Readonly<Record<string, readonly string[]>>;

const byTenant = z.record(
  z.string().check(z.regex(/^(\*|[a-z]+:.+)$/, 'keys are "*" or "<platform>:<tenant id>"')),
  z.array(toolName),
);

/** A comma-separated list (every tenant) or a JSON object of lists by tenant; unset: no tools. */
const toolsSetting = z.pipe(
  z._default(z.string(), ""),
  z.transform((v, ctx): ToolsByTenant => {
    const text = v.trim();
    if (!text.startsWith("{"))
      return {
        "*": text
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
      };
    const parsed = byTenant.safeParse(parseJson(text));
    if (parsed.success) return parsed.data;
    ctx.issues.push({
      code: "custom",
      message: parsed.error.issues[0]?.message ?? "not a JSON object of tool lists",
      input: v,
    });
    return z.NEVER;
  }),
);

/** One HTTP tool (docs/tools.md): its name, what it does, its arguments' JSON Schema, where, whose secret signs. */
const httpToolSchema = z.object({
  name: toolName,
  description: z.string().check(z.minLength(1), z.maxLength(1_024)),
  parameters: z.looseObject({ type: z.literal("object") }),
  /** https; plain http only on this machine (the local tool server). */
  url: url.check(
    z.refine(
      (v) => v.startsWith("https://") || /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?(\/|$)/.test(v),
      "must be an https URL (http only for 127.0.0.1 or localhost)",
    ),
  ),
  /** The name of the Worker secret whose value signs the requests (HMAC-SHA256). */
  secret: z.string().check(z.regex(/^[A-Z][A-Z0-9_]*$/, "the secret's name is an env name (A-Z, 0-9, _)")),
  /** Never run on the model's word: a person approves each call. */
  confirm: z.optional(z.boolean()),
});
export type HttpToolDeclaration = z.output<typeof httpToolSchema>;

const httpToolsSetting = z.pipe(
  z._default(z.string(), "[]"),
  z.transform((v, ctx): HttpToolDeclaration[] => {
    const parsed = z.array(httpToolSchema).safeParse(parseJson(v.trim() || "[]"));
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    ctx.issues.push({
      code: "custom",
      message: `${issue?.path.join(".") ?? ""} ${issue?.message ?? "invalid"}`.trim(),
      input: v,
    });
    return z.NEVER;
  }),
);

/** A host name, or `*.` and one: the name and every name under it (fetch_page's lists, ./tools/page-host.ts). */
const HOST_ENTRY = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const hostList = z.pipe(
  z.string(),
  z.transform((v, ctx): string[] => {
    const names = v
      .split(",")
      .map((e) =>
        e
          .trim()
          .toLowerCase()
          .replace(/^\*?\./, ""),
      )
      .filter(Boolean);
    if (names.every((n) => HOST_ENTRY.test(n))) return names;
    ctx.issues.push({
      code: "custom",
      message: "each entry is a host name such as example.com, comma-separated (no scheme, port or path)",
      input: v,
    });
    return z.NEVER;
  }),
);

export const toolSettingsShape = {
  TOOLS: toolsSetting,
  HTTP_TOOLS: httpToolsSetting,
  /** Tool rounds one answer may take before the model must answer with what it has. */
  MAX_TOOL_ROUNDS: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(10)), 3),
  /** The model of the passes after a tool round; unset: LLM_MODEL. */
  FOLLOWUP_MODEL: optionalText,
  /** How long one tool call may take before the model hears that it failed. */
  TOOL_TIMEOUT_MS: z._default(z.coerce.number().check(z.int(), z.positive()), 10_000),
  /** How long a confirm tool's question waits for a person's ✅ or ❌ before it is cancelled (docs/tools.md). */
  APPROVAL_TTL_MINUTES: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(1440)), 15),
  /** The most of a page fetch_page reads. */
  FETCH_MAX_BYTES: z._default(z.coerce.number().check(z.int(), z.gte(1_024), z.lte(5_000_000)), 200_000),
  /** fetch_page's resolver: a DNS-over-HTTPS JSON API (`?name=…&type=A`), which every page's name goes through. */
  FETCH_DNS_URL: z._default(url, "https://cloudflare-dns.com/dns-query"),
  /** Host names fetch_page never fetches from (each covers the names under it). */
  FETCH_DENIED_HOSTS: z._default(hostList, []),
  /** When set, the only host names fetch_page fetches from; unset or empty: any public name. */
  FETCH_ALLOWED_HOSTS: z.pipe(optionalText, z.optional(hostList)),
  /** The search provider web_search calls (Brave Search's API shape); unset: no web_search. */
  WEB_SEARCH_URL: z.pipe(optionalText, z.optional(url)),
  WEB_SEARCH_API_KEY: optionalText,
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
