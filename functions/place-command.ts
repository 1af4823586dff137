/**
 * @module
 * `/parley` as the routes of the platforms that have it run it (functions/slack.ts, functions/discord.ts,
 * functions/telegram.ts): the command's words against the place's settings (lib/places/) or its digest
 * (lib/digests/command.ts, which posts where `origin` says), with the platform's own answer to "may this person
 * change them", and one log line saying what was asked and whether anything changed (never who or the words).
 */
import { type DigestOrigin, runDigestCommand } from "../lib/digests/command.ts";
import { runPersonalDigestCommand } from "../lib/digests/personal-command.ts";
import { using } from "../lib/errors.ts";
import type { ConversationKey } from "../lib/message.ts";
import { parsePlaceCommand, runPlaceCommand } from "../lib/places/command.ts";
import type { Runtime } from "../lib/runtime.ts";

/** Where "forget me" is not a subcommand of the platform's own, how to ask for it. */
const FORGET_HOW =
  "To have me forget what I know about you, send me “forget me” in a direct message or mention me with it.";

/** The answer's text for `text` (the words after `/parley`) used in `place`. */
export async function answerPlaceCommand(
  rt: Runtime,
  place: ConversationKey,
  text: string,
  mayChange: () => Promise<boolean>,
  origin: () => Promise<DigestOrigin>,
): Promise<string> {
  const command = parsePlaceCommand(text);
  if (command.kind === "forget") {
    rt.log.info("place_command", { platform: place.platform, tenant: place.tenant, command: "forget", changed: false });
    return FORGET_HOW;
  }
  const answer =
    command.kind === "digest"
      ? await using("qstash", async () => {
          const { digest } = command;
          // Anyone may set their own digest: it reads only what they may read, and goes to them alone.
          if (digest.kind === "me") return runPersonalDigestCommand(rt, place, digest.command, await origin());
          return runDigestCommand(rt, place, digest, mayChange, await origin());
        })
      : await using("redis", () =>
          runPlaceCommand(rt.placeSettings, place, command, mayChange, rt.settings.RESCUE_AFTER_MINUTES),
        );
  rt.log.info("place_command", {
    platform: place.platform,
    tenant: place.tenant,
    command: command.kind,
    changed: answer.changed,
  });
  return answer.text;
}
