/**
 * @module
 * bench/chaos's privacy checks, from the outside: a DM's secret in a prompt about another place (what the local
 * model was asked), and phone numbers, tokens or people's text in a log line or a queue payload.
 */
import { FAKE_APP_PASSWORD } from "../../dev/fakes/teams/server.ts";
import { TELEGRAM_BOT, TELEGRAM_SECRET } from "../load/telegram-traffic.ts";
import { TWILIO_AUTH_TOKEN } from "../load/traffic.ts";
import { json, origin, tagsIn } from "./checks.ts";
import { SECRET_PATTERN } from "./plan.ts";

/** A DM's secret in a prompt about anything else: the last message the model was given is not from that DM. */
export async function checkPrompts(modelUrl: string, problems: string[]): Promise<{ read: number; leaks: number }> {
  const requests = await json<{ messages: { role: string; content: string }[] }[]>(`${origin(modelUrl)}/__requests`);
  let leaks = 0;
  for (const r of requests) {
    const all = r.messages.map((m) => m.content).join("\n");
    const last = [...r.messages].reverse().find((m) => m.role === "user")?.content ?? "";
    for (const [, id] of all.matchAll(SECRET_PATTERN)) {
      if (!tagsIn(last).includes(Number(id))) {
        leaks++;
        problems.push(`leak: DM ${id}'s secret in a prompt ending ${JSON.stringify(last.slice(-100))}`);
      }
    }
  }
  return { read: requests.length, leaks };
}

/** What must never be in a log line or a queue payload: phone numbers, tokens, people's text. */
export function leakPatterns(tokens: readonly string[]): [string, RegExp][] {
  const literal = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return [
    ["phone number", /\+1555\d{7}/],
    ["token", new RegExp([...tokens, TWILIO_AUTH_TOKEN].map(literal).join("|"))],
    ["interaction token", /aW50ZXJhY3Rpb24/],
    ["message text", /kz\d+kz|w\d+n\d+w|dmsecret\d+x/],
  ];
}

/**
 * A queue payload with its sealed fields' ciphertext left out: base64 runs by chance spell a tag or a word of the
 * plan now and then (about one run in ten: `w12n3w` is 6 of ~1 M characters of ciphertext per run). What the plan
 * writes always has spaces within 40 characters, so no plain text is left out with them.
 */
export const withoutCiphertext = (payload: string) => payload.replace(/[A-Za-z0-9+/_-]{40,}={0,2}/g, "…");

export function checkLines(
  what: string,
  lines: readonly string[],
  patterns: readonly [string, RegExp][],
  problems: string[],
): number {
  let leaks = 0;
  for (const line of lines) {
    for (const [name, pattern] of patterns) {
      if (pattern.test(line)) {
        leaks++;
        problems.push(`leak: ${name} in a ${what}: ${line.slice(0, 160)}`);
      }
    }
  }
  return leaks;
}

/** The secrets of the bench's stack that must never be in a log line or a queue payload. */
export function chaosLeakPatterns(): [string, RegExp][] {
  // Each workspace's bot token, as the Slack fake issues it at the install (dev/fakes/slack/workspaces.ts).
  const installed: [string, RegExp] = ["installed bot token", /xoxb-T[A-Z0-9]+-[0-9a-f]{8}/];
  return [
    installed,
    ...leakPatterns([
      "xoxb-bench",
      "bench-discord-token",
      TELEGRAM_BOT.token,
      TELEGRAM_SECRET,
      // The Google Chat fake's access tokens, the service account's key, and RS256 JWTs (events, assertions).
      "ya29.",
      "PRIVATE KEY",
      "eyJhbGciOiJSUzI1NiIs",
      // The Teams fake's bot secret and the access tokens its identity platform issues.
      FAKE_APP_PASSWORD,
      "eyJ0eXAiOiJKV1QifQ.fake-",
    ]),
  ];
}

/**
 * From now on, what this process prints through `console` is kept, not shown: the JSON log lines of the Worker and
 * the stand-ins (wrangler prints the Worker's warnings and errors coloured, behind a "✘ [ERROR]" mark: the JSON is
 * inside).
 */
export function captureLogLines(): string[] {
  const logLines: string[] = [];
  const quiet = (...line: unknown[]) => {
    const text = line
      .map(String)
      .join(" ")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the terminal's colour codes (ESC [ … m)
      .replace(/\u001b\[[0-9;]*m/g, "");
    const start = text.indexOf('{"event"');
    if (start >= 0) logLines.push(text.slice(start, text.lastIndexOf("}") + 1));
  };
  console.log = quiet;
  console.info = quiet;
  console.warn = quiet;
  console.error = quiet;
  return logLines;
}
