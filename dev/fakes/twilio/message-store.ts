/**
 * @module
 * The messages the Twilio fake sent, as Twilio's Message resource (`sid`, `status`, `date_sent`, RFC 2822 dates,
 * `num_segments`, ...), and the Messages list: `To`, `From`, `DateSent` / `DateSent<` / `DateSent>` filters,
 * newest first, pages of `PageSize` (default 50, at most 1,000) with `Page` and `PageToken` and the paging URIs
 * Twilio gives, so that a retry can look up whether a text already went out.
 */
import { isWhatsApp } from "./senders.ts";

const API_VERSION = "2010-04-01";
const PAGE_SIZE = { default: 50, max: 1_000 };
/** The GSM 03.38 basic set fits 160 characters in one segment (153 when concatenated); others need UCS-2 (70/67). */
const GSM_BASIC = /^[A-Za-z0-9 \r\n@£$¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ!"#¤%&'()*+,\-./:;<=>?¡ÄÖÑÜ§¿äöñüà^{}\\[~\]|€]*$/;
const GSM_EXTENDED = /[\^{}\\[~\]|€]/g;

export interface StoredTwilioMessage {
  sid: string;
  accountSid: string;
  to: string;
  from: string;
  body: string;
  messagingServiceSid?: string;
  statusCallback?: string;
  status: "queued" | "accepted" | "sent" | "delivered" | "failed";
  errorCode?: number;
  errorMessage?: string;
  /** Epoch ms. */
  createdAt: number;
}

/** Twilio's dates: RFC 2822 with `+0000`. */
const twilioDate = (ms: number) => new Date(ms).toUTCString().replace("GMT", "+0000");

function segments(body: string, whatsapp: boolean): number {
  if (whatsapp) return 1;
  if (GSM_BASIC.test(body)) {
    const length = body.length + (body.match(GSM_EXTENDED)?.length ?? 0);
    return length <= 160 ? 1 : Math.ceil(length / 153);
  }
  const units = body.length;
  return units <= 70 ? 1 : Math.ceil(units / 67);
}

export function messageResource(m: StoredTwilioMessage, opts: { justCreated?: boolean } = {}): Record<string, unknown> {
  const uri = `/${API_VERSION}/Accounts/${m.accountSid}/Messages/${m.sid}.json`;
  const status = opts.justCreated ? (m.messagingServiceSid ? "accepted" : "queued") : m.status;
  return {
    account_sid: m.accountSid,
    api_version: API_VERSION,
    body: m.body,
    date_created: twilioDate(m.createdAt),
    date_sent: opts.justCreated ? null : twilioDate(m.createdAt),
    date_updated: twilioDate(m.createdAt),
    direction: "outbound-api",
    error_code: opts.justCreated ? null : (m.errorCode ?? null),
    error_message: opts.justCreated ? null : (m.errorMessage ?? null),
    // A Messaging Service picks the sender after accepting the message.
    from: opts.justCreated && m.messagingServiceSid ? null : m.from,
    messaging_service_sid: m.messagingServiceSid ?? null,
    num_media: "0",
    num_segments: String(segments(m.body, isWhatsApp(m.to))),
    price: null,
    price_unit: "USD",
    sid: m.sid,
    status,
    subresource_uris: { media: uri.replace(/\.json$/, "/Media.json") },
    to: m.to,
    uri,
  };
}

export class TwilioMessageStore {
  #messages: StoredTwilioMessage[] = [];
  #sequence = 0;

  nextSid(): string {
    this.#sequence += 1;
    return `SM${this.#sequence.toString(16).padStart(32, "0")}`;
  }

  add(message: StoredTwilioMessage): void {
    this.#messages.push(message);
  }

  find(accountSid: string, sid: string): StoredTwilioMessage | undefined {
    return this.#messages.find((m) => m.accountSid === accountSid && m.sid === sid);
  }

  all(): StoredTwilioMessage[] {
    return [...this.#messages];
  }

  reset(): void {
    this.#messages = [];
    this.#sequence = 0;
  }

  /** One page of the account's messages as `GET …/Messages.json` answers it. */
  page(accountSid: string, query: URLSearchParams): Record<string, unknown> {
    const matching = this.#messages.filter((m) => m.accountSid === accountSid && matchesQuery(m, query)).reverse();
    const pageSize = Math.min(Math.max(Number(query.get("PageSize")) || PAGE_SIZE.default, 1), PAGE_SIZE.max);
    const page = Math.max(Number(query.get("Page")) || 0, 0);
    const token = query.get("PageToken");
    const afterSid = token?.startsWith("PA") ? matching.findIndex((m) => m.sid === token.slice(2)) : -1;
    const start = afterSid >= 0 ? afterSid + 1 : page * pageSize;
    const items = matching.slice(start, start + pageSize);
    const base = `/${API_VERSION}/Accounts/${accountSid}/Messages.json`;
    const uri = (p: number, extra: Record<string, string> = {}) => {
      const params = new URLSearchParams([...query].filter(([k]) => !["Page", "PageSize", "PageToken"].includes(k)));
      params.set("PageSize", String(pageSize));
      params.set("Page", String(p));
      for (const [k, v] of Object.entries(extra)) params.set(k, v);
      return `${base}?${params}`;
    };
    const hasNext = start + pageSize < matching.length;
    return {
      messages: items.map((m) => messageResource(m)),
      end: start + Math.max(items.length, 1) - 1,
      first_page_uri: uri(0),
      next_page_uri: hasNext ? uri(page + 1, { PageToken: `PA${items.at(-1)!.sid}` }) : null,
      page,
      page_size: pageSize,
      previous_page_uri: page > 0 ? uri(page - 1) : null,
      start,
      uri: uri(page, token ? { PageToken: token } : {}),
    };
  }
}

/** `DateSent` (that UTC day), `DateSent<` (on or before), `DateSent>` (on or after): a date or an ISO date-time. */
function matchesQuery(m: StoredTwilioMessage, query: URLSearchParams): boolean {
  const to = query.get("To");
  const from = query.get("From");
  if (to && m.to !== to) return false;
  if (from && m.from !== from) return false;
  const day = query.get("DateSent");
  if (day && new Date(m.createdAt).toISOString().slice(0, 10) !== day.slice(0, 10)) return false;
  const before = query.get("DateSent<");
  if (before && m.createdAt > bound(before, "end")) return false;
  const after = query.get("DateSent>");
  if (after && m.createdAt < bound(after, "start")) return false;
  return true;
}

/** A bare date covers its whole UTC day. */
function bound(value: string, edge: "start" | "end"): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value))
    return Date.parse(`${value}T00:00:00Z`) + (edge === "end" ? 86_400_000 - 1 : 0);
  return Date.parse(value);
}
