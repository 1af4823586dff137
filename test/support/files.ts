/**
 * @module
 * Puts files into the platform fakes as a person pasting them would (dev/fakes/files.ts), and answers the platform's
 * own file object to put in a webhook: Slack's `files` entry, Discord's attachment, Twilio's MediaUrl/ContentType.
 */
import { env } from "cloudflare:workers";
import { bytesToBase64 } from "../../lib/base64.ts";
import { SLACK_API_BASE_URL } from "./worker.ts";

const bindings = env as unknown as Record<string, string>;

/** A picture the fake draws: `colour` everywhere, or above `bottom`. */
interface DrawnPng {
  width: number;
  height: number;
  colour: string;
  bottom?: string;
}

export type Upload = { name: string; type?: string; snippet?: boolean } & ({ png: DrawnPng } | { base64: string });

async function put<T>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, { method: "POST", body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`pasting into ${url} failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export function slackFile(upload: Upload & { team?: string }): Promise<Record<string, unknown>> {
  return put(`${SLACK_API_BASE_URL.replace(/\/api$/, "")}/__files`, upload);
}

export function discordAttachment(upload: Upload & { channel_id?: string }): Promise<Record<string, unknown>> {
  return put(`${bindings.DISCORD_API_BASE_URL!.replace(/\/api\/v10$/, "")}/__attachments`, upload);
}

export function twilioMedia(
  upload: Upload & { account?: string; message?: string },
): Promise<{ MediaUrl: string; MediaContentType: string }> {
  return put(`${bindings.TWILIO_API_BASE_URL!}/__media`, upload);
}

export function telegramFile(upload: Upload): Promise<Record<string, unknown>> {
  return put(`${bindings.TELEGRAM_API_BASE_URL!}/__files`, upload);
}

/** UTF-8 text as base64, for a text file's upload. */
export function base64Text(text: string): string {
  return bytesToBase64(new TextEncoder().encode(text));
}
