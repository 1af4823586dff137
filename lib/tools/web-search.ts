/**
 * @module
 * `web_search`: a query to the search provider at WEB_SEARCH_URL, in the shape of Brave Search's Web Search API
 * (https://api-dashboard.search.brave.com/docs): `GET <WEB_SEARCH_URL>?q=<query>&count=5` with `Accept:
 * application/json` and the key in `X-Subscription-Token`; the answer's `web.results[]` each give `title`, `url`
 * and `description`. Off unless both WEB_SEARCH_URL and WEB_SEARCH_API_KEY are set.
 */
import type { Settings } from "../config.ts";
import * as z from "../zod.ts";
import { defineTool, type Tool } from "./tool.ts";
import { pageText } from "./fetch-page.ts";

const WEB_SEARCH = "web_search";
const RESULTS = 5;

const answerSchema = z.looseObject({
  web: z.optional(
    z.looseObject({
      results: z.array(z.looseObject({ title: z.string(), url: z.string(), description: z.optional(z.string()) })),
    }),
  ),
});

/** The tool, when a provider is configured. */
export function webSearchTool(s: Settings): Tool | null {
  const endpoint = s.WEB_SEARCH_URL;
  const key = s.WEB_SEARCH_API_KEY;
  if (!endpoint || !key) return null;
  return defineTool({
    name: WEB_SEARCH,
    description: "Search the web; returns the top results' titles, addresses and snippets.",
    args: z.object({ query: z.string().check(z.minLength(1), z.maxLength(400)) }),
    async run({ query }, ctx) {
      const url = new URL(endpoint);
      url.searchParams.set("q", query);
      url.searchParams.set("count", String(RESULTS));
      const res = await fetch(url, {
        headers: { accept: "application/json", "x-subscription-token": key },
        signal: ctx.signal,
      });
      if (!res.ok) throw new Error(`the search provider answered ${res.status}`);
      const parsed = answerSchema.safeParse(await res.json());
      if (!parsed.success) throw new Error("the search provider answered in an unexpected shape");
      const results = (parsed.data.web?.results ?? []).slice(0, RESULTS);
      if (results.length === 0) return "no results";
      // Brave marks the query's words in snippets with <strong>: the text only.
      return results.map((r) => `${pageText(r.title)} <${r.url}>: ${pageText(r.description ?? "")}`).join("\n");
    },
  });
}
