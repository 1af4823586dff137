/**
 * @module
 * "Did an earlier attempt's text go out?" on Twilio: the Messages list, filtered on the person's number and the
 * bot's, newest first; the earliest text with the very same body created since the earlier attempt's call began is
 * taken to be that attempt's, instead of sending it again.
 */
import { basicAuthorization } from "../../base64.ts";
import * as z from "../../zod.ts";
import { PlatformRateLimited } from "../rate-limited.ts";
import { type MessageListQuery, messagesUrl, retryAfterSeconds, type SendTwilioSmsArgs } from "./send.ts";

/** Twilio's clock and ours differ a little: look this far before the call began. */
const CLOCK_SLACK_MS = 10_000;
/** The texts to one person since an attempt began fit in one page. */
const PAGE_SIZE = 20;
const REQUEST_TIMEOUT_MS = 10_000;

const listSchema = z.looseObject({
  messages: z.array(
    z.looseObject({ sid: z.string(), body: z.nullish(z.string()), date_created: z.nullish(z.string()) }),
  ),
});

export interface SentSmsQuery extends SendTwilioSmsArgs {
  /** When the earlier attempt's call began, ms since the epoch. */
  since: number;
}

/** The sid of a text with `body` sent from `from` to `to` since `since`, or null. */
export async function findSentSms(q: SentSmsQuery): Promise<string | null> {
  const query: MessageListQuery = { To: q.to, From: q.from, PageSize: String(PAGE_SIZE) };
  const url = `${messagesUrl(q.apiBaseUrl, q.accountSid)}?${new URLSearchParams(query)}`;
  const response = await (q.fetch ?? fetch)(url, {
    headers: { Authorization: basicAuthorization(q.accountSid, q.authToken) },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if (response.status === 429) {
    await response.body?.cancel();
    throw new PlatformRateLimited("Twilio Messages API rate limited", retryAfterSeconds(response.headers));
  }
  if (response.status >= 400 && response.status < 500) {
    // The list is not ours to read (a restricted key): send again, as without the lookup.
    await response.body?.cancel();
    return null;
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`Twilio Messages API answered HTTP ${response.status} to a list`);
  }
  const listed = listSchema.safeParse(await response.json().catch(() => undefined));
  if (!listed.success) throw new Error("Twilio Messages API answered a list without messages");
  // Newest first: the earliest since the call began is that call's; a later one with the same words is another
  // answer's (the same question asked again), which this attempt must not take for its own.
  const found = listed.data.messages.findLast(
    (m) => m.body === q.body && Date.parse(m.date_created ?? "") >= q.since - CLOCK_SLACK_MS,
  );
  return found?.sid ?? null;
}
