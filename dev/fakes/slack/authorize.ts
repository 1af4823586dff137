/**
 * @module
 * Slack's OAuth v2 authorize page as the fake plays it: `GET /oauth/v2/authorize?client_id&scope&state&redirect_uri`
 * with `team` (Slack's own parameter that picks the workspace) and, the fake's addition, `team_name` approves the
 * install for that workspace at once, as the person pressing "Allow" would, and redirects to `redirect_uri` with the
 * code and the `state`. Without `team` it shows a small form that asks for one (a person trying /slack/install by
 * hand). A client id of another app gets Slack's error page, and no redirect.
 */
import type { ServerResponse } from "node:http";
import { z } from "zod";
import { escapeHtml } from "../../../lib/platforms/slack/oauth/pages.ts";
import type { OAuthServer } from "./oauth.ts";
import type { SlackSettings } from "./settings.ts";

export const AUTHORIZE_PATH = "/oauth/v2/authorize";

const authorizeQuery = z.object({
  client_id: z.string().min(1),
  scope: z.string().default(""),
  state: z.string().default(""),
  redirect_uri: z.string().url(),
  team: z
    .string()
    .regex(/^T[A-Z0-9]+$/)
    .optional(),
  team_name: z.string().min(1).max(80).optional(),
});

export function authorizePage(
  res: ServerResponse,
  url: URL,
  oauth: OAuthServer,
  settings: SlackSettings["oauth"],
): void {
  const parsed = authorizeQuery.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success)
    return page(res, 400, `<p>Invalid install link: ${escapeHtml(z.prettifyError(parsed.error))}</p>`);
  const query = parsed.data;
  if (query.client_id !== settings.clientId)
    return page(res, 400, "<p>invalid_client_id: this link is not for an app Slack knows.</p>");
  if (!query.team) return page(res, 200, teamForm(url));
  const code = oauth.approveInstall(
    {
      teamId: query.team,
      ...(query.team_name ? { teamName: query.team_name } : {}),
      ...(query.scope ? { scope: query.scope } : {}),
    },
    query.redirect_uri,
  );
  const back = new URL(query.redirect_uri);
  back.searchParams.set("code", code);
  back.searchParams.set("state", query.state);
  res.writeHead(302, { Location: back.toString() });
  res.end();
}

/** The same link again, with the workspace the person names. */
function teamForm(url: URL): string {
  const hidden = [...url.searchParams]
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
  return (
    `<h1>Install in a workspace (Slack fake)</h1><form method="get" action="${AUTHORIZE_PATH}">${hidden}` +
    `<label>Team id <input name="team" pattern="T[A-Z0-9]+" required placeholder="T0ACME"></label> ` +
    `<label>Name <input name="team_name" placeholder="Acme"></label> <button>Allow</button></form>`
  );
}

function page(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "Content-Type": "text/html; charset=utf-8" });
  res.end(`<!doctype html><meta charset="utf-8"><title>Slack fake</title>${body}`);
}
