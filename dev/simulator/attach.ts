/**
 * @module
 * A file attached on the simulator page, put into the platform's fake as a person pasting it would
 * (dev/fakes/files.ts):
 * the fake answers the platform's own object for it (a Slack file, a Discord attachment, Twilio media, a Telegram photo
 * or document), which the message then carries, and serves the bytes under the platform's access rule.
 */
import { z } from "zod";
import type { FakeOrigins } from "./bot-posts.ts";

export const attachmentSchema = z.object({
  name: z.string().min(1).max(256),
  type: z.string().max(128),
  /** The file's bytes, base64; at most about 5 MB. */
  base64: z.string().max(7_000_000),
});
export type Attachment = z.infer<typeof attachmentSchema>;

/** Where the file belongs: the Slack workspace, the Discord channel, the Twilio account (the others need nothing). */
export type AttachTo =
  | { platform: "slack"; team: string }
  | { platform: "discord"; channel: string }
  | { platform: "sms"; account: string }
  | { platform: "telegram" };

const ROUTES = { slack: "/__files", discord: "/__attachments", sms: "/__media", telegram: "/__files" } as const;

export async function pasteIntoFake(
  fakes: FakeOrigins,
  to: AttachTo,
  file: Attachment,
): Promise<Record<string, unknown>> {
  const origin = to.platform === "sms" ? fakes.twilio : fakes[to.platform];
  const owner =
    to.platform === "slack"
      ? { team: to.team }
      : to.platform === "discord"
        ? { channel_id: to.channel }
        : to.platform === "sms"
          ? { account: to.account }
          : {};
  const res = await fetch(`${origin}${ROUTES[to.platform]}`, {
    method: "POST",
    body: JSON.stringify({ ...owner, ...file }),
  });
  if (!res.ok) throw new Error(`the ${to.platform} fake refused the attachment: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}
