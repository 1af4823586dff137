/**
 * @module
 * `fetch_page`: a GET of a public `https` page, its text for the model. Refused before any request: another scheme,
 * a user name or password in the URL, an IP literal, localhost and other names without a public suffix, a port other
 * than 443; then a name FETCH_DENIED_HOSTS names or FETCH_ALLOWED_HOSTS does not, and a name that resolves to a
 * private address (./page-host.ts). Redirects are followed by hand (at most MAX_REDIRECTS), each new address checked
 * the same way. No credential is ever sent (no cookies, no Authorization, nothing of the Worker's), at most
 * FETCH_MAX_BYTES are read, and the call ends at TOOL_TIMEOUT_MS. HTML is reduced to its text (scripts, styles and
 * tags dropped).
 */
import * as z from "../zod.ts";
import { hostRefusal } from "./page-host.ts";
import { defineTool, ToolRefusal, type ToolContext } from "./tool.ts";

const FETCH_PAGE = "fetch_page";
const MAX_REDIRECTS = 3;
const TEXT_TYPES = /^(text\/(html|plain|markdown)|application\/(xhtml\+xml|json))\b/i;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
/** Names that never reach the public internet (RFC 6761 and the usual private suffixes), and single labels. */
const PRIVATE_NAMES = /(^|\.)(localhost|local|internal|lan|home\.arpa|intranet|corp)$/i;

/** Why `raw` may not be fetched, or null when it may. */
export function pageUrlRefusal(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "not a URL";
  }
  if (url.protocol !== "https:") return "only https pages are fetched";
  if (url.username || url.password) return "a URL with credentials is refused";
  const host = url.hostname.replace(/\.$/, "");
  if (host.startsWith("[") || IPV4.test(host) || /^\d+$/.test(host) || /^0x/i.test(host))
    return "an IP address is refused: give the page's name";
  if (!host.includes(".") || PRIVATE_NAMES.test(host)) return "a local or private host is refused";
  if (url.port !== "") return "only the standard https port is allowed";
  return null;
}

/** The readable text of an HTML page: no scripts, styles or tags, entities for the common characters. */
export function pageText(html: string): string {
  return html
    .replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

/** At most `maxBytes` of the body, decoded as UTF-8; the rest is never read. */
export async function readCapped(res: Response, maxBytes: number): Promise<{ text: string; cut: boolean }> {
  if (!res.body) return { text: "", cut: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    const room = maxBytes - size;
    chunks.push(next.value.subarray(0, room));
    size += Math.min(room, next.value.byteLength);
    if (next.value.byteLength >= room) {
      cut = next.value.byteLength > room || !(await reader.read()).done;
      break;
    }
  }
  await reader.cancel().catch(() => undefined);
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { text: new TextDecoder().decode(bytes), cut };
}

export const fetchPageTool = defineTool({
  name: FETCH_PAGE,
  description: "Read the text of a public web page (https) that someone in the chat gave.",
  args: z.object({ url: z.string().check(z.minLength(1), z.maxLength(2_000)) }),
  async run({ url }, ctx) {
    const { settings } = ctx.services;
    const malformed = settings.ignored.find((p) => p.name === "FETCH_ALLOWED_HOSTS" || p.name === "FETCH_DENIED_HOSTS");
    if (malformed) throw new ToolRefusal(`fetch_page is off: the bot's ${malformed.name} setting is malformed`);
    let address = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const refusal = pageUrlRefusal(address) ?? (await hostRefusal(new URL(address).hostname, hostRules(ctx)));
      if (refusal) throw new ToolRefusal(refusal);
      const res = await fetch(address, {
        redirect: "manual",
        headers: { accept: "text/html, text/plain;q=0.9" },
        signal: ctx.signal,
      });
      const location = res.headers.get("location");
      if (res.status >= 300 && res.status < 400 && location) {
        await res.body?.cancel();
        address = new URL(location, address).toString();
        continue;
      }
      if (!res.ok) throw new ToolRefusal(`the page answered ${res.status}`);
      const type = res.headers.get("content-type") ?? "";
      if (!TEXT_TYPES.test(type)) throw new ToolRefusal("the page is not text");
      const body = await readCapped(res, ctx.services.settings.FETCH_MAX_BYTES);
      const text = /html/i.test(type) ? pageText(body.text) : body.text.trim();
      return body.cut ? `${text} [cut at ${ctx.services.settings.FETCH_MAX_BYTES} bytes]` : text;
    }
    throw new ToolRefusal("too many redirects");
  },
});

function hostRules({ services: { settings }, signal }: ToolContext) {
  return {
    dnsUrl: settings.FETCH_DNS_URL,
    allowed: settings.FETCH_ALLOWED_HOSTS,
    denied: settings.FETCH_DENIED_HOSTS,
    signal,
  };
}
