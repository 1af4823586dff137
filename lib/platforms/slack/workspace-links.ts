/**
 * @module
 * Links to a workspace's messages on the workspace's own domain. A catch-up cites messages by permalinks built
 * without a call per link (./history.ts: `https://app.slack.com/archives/…`, which opens in whichever workspace the
 * reader is signed in to); the message that carries them goes out with each such link on the domain chat.getPermalink
 * would give (`https://<domain>.slack.com/archives/…`), the domain as `auth.test` names it for the token (its `url`),
 * asked once per workspace and isolate. A text without such links costs nothing; when `auth.test` fails (logged
 * `workspace_domain_unavailable`, or refused), the links stay as they were (they still open the message).
 */
import * as z from "../../zod.ts";
import { optionalRead, type ReadLog } from "../optional-read.ts";
import { callSlack, type SlackCallArgs } from "./api.ts";

/** Where ./history.ts builds the permalinks. */
export const APP_ARCHIVES = "https://app.slack.com/archives/";
const WORKSPACE_URL = /^https:\/\/[a-z0-9][a-z0-9-]*(?:\.enterprise)?\.slack\.com\/$/;
const authUrlSchema = z.looseObject({ url: z.string().check(z.regex(WORKSPACE_URL)) });

/** Each tenant's workspace URL (`https://acme.slack.com/`), once known. */
const workspaceUrls = new Map<string, string>();

/** `text` with its app.slack.com permalinks on the workspace's own domain (`tenant`'s, whose token `call` carries). */
export async function onWorkspaceDomain(call: SlackCallArgs & ReadLog, tenant: string, text: string): Promise<string> {
  if (!text.includes(APP_ARCHIVES)) return text;
  let url = workspaceUrls.get(tenant);
  if (!url) {
    const read = async () => authUrlSchema.parse(await callSlack(call, "auth.test", {}, "form")).url;
    url = await optionalRead("workspace_domain", { log: call.log, fields: { tenant } }, read).catch(() => undefined);
    if (!url) return text;
    workspaceUrls.set(tenant, url);
  }
  return text.replaceAll(APP_ARCHIVES, `${url}archives/`);
}
