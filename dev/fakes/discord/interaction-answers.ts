/**
 * @module
 * Discord's side of an interaction, for whoever plays Discord against a Worker (tests, benches, the simulator):
 * send the signed interaction, time the app's answer, and tell the Discord fake what came back (`POST
 * /__interactions`), as Discord learns it from the HTTP response. Without that the fake refuses the app's edits and
 * follow-ups, as Discord refuses them for an interaction it never saw acknowledged (./interactions.ts). fetch only:
 * runs in Node and in workerd.
 */

interface InteractionIds {
  id: string;
  application_id: string;
  token: string;
  channel_id?: string;
  /** A component's press: the message it is on. */
  message_id?: string;
}

function idsOf(body: string): InteractionIds | undefined {
  try {
    const { id, application_id, token, channel_id, message } = JSON.parse(body) as Partial<
      Record<keyof InteractionIds | "message", unknown>
    >;
    if (typeof id !== "string" || typeof application_id !== "string" || typeof token !== "string") return undefined;
    const messageId = (message as { id?: unknown } | undefined)?.id;
    return {
      id,
      application_id,
      token,
      ...(typeof channel_id === "string" ? { channel_id } : {}),
      ...(typeof messageId === "string" ? { message_id: messageId } : {}),
    };
  } catch {
    return undefined;
  }
}

/**
 * Sends the interaction `body` with `send` and tells the fake at `fakeOrigin` what the app answered; resolves with
 * the app's answer, its body still readable.
 */
export async function sendAsDiscord(
  fakeOrigin: string,
  body: string,
  send: () => Promise<Response>,
): Promise<Response> {
  const started = Date.now();
  const response = await send();
  const answeredAfterMs = Date.now() - started;
  const text = await response.text();
  await reportInteractionAnswer(fakeOrigin, body, { status: response.status, text }, answeredAfterMs);
  return new Response(text, { status: response.status, headers: response.headers });
}

/**
 * Tells the fake at `fakeOrigin` (the Discord fake's origin, or its API base) that Discord sent the interaction
 * `body` and what the app answered, `answeredAfterMs` later. A body that is no interaction (a hostile test's) is not
 * reported.
 */
export async function reportInteractionAnswer(
  fakeOrigin: string,
  body: string,
  answer: { status: number; text: string },
  answeredAfterMs: number,
): Promise<void> {
  const ids = idsOf(body);
  if (!ids) return;
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(answer.text);
  } catch {
    // Not JSON: Discord counts it as no answer.
  }
  const res = await fetch(`${discordFakeOrigin(fakeOrigin)}/__interactions`, {
    method: "POST",
    body: JSON.stringify({
      ...ids,
      answer: { status: answer.status, body: parsed },
      answered_after_ms: answeredAfterMs,
    }),
  });
  if (!res.ok) throw new Error(`the Discord fake refused the interaction's report: ${res.status} ${await res.text()}`);
}

/** The Discord fake's origin for its control routes, from DISCORD_API_BASE_URL (`…/api/v10`) or the origin itself. */
export function discordFakeOrigin(apiBaseUrl: string): string {
  return apiBaseUrl.replace(/\/api\/v10\/?$/, "");
}
