/**
 * @module
 * A tool declared in HTTP_TOOLS (docs/tools.md): Parley POSTs the call to the tool's URL and passes its answer to the
 * model. The body is `{tool, arguments, context: {platform, tenant, place, thread?, asker}}` (pseudonyms where the ids
 * are personal: `sentIds`); the request carries `Idempotency-Key` (the same on every retry of the answer),
 * `X-Parley-Timestamp` (seconds) and `X-Parley-Signature: v1=<hex HMAC-SHA256 of "<timestamp>.<body>">` keyed with
 * the secret the declaration names, so the endpoint can check that the call is Parley's and fresh. A 2xx answer is
 * JSON `{"result": …}` (a string, or any JSON, which the model sees as JSON); anything else is a failed call.
 */
import type { HttpToolDeclaration } from "../tool-settings.ts";
import * as z from "../zod.ts";
import { readCapped } from "./fetch-page.ts";
import { ToolRefusal, type Tool, type ToolContext } from "./tool.ts";

const SIGNATURE_HEADER = "x-parley-signature";
const TIMESTAMP_HEADER = "x-parley-timestamp";
/** An endpoint's answer longer than this is not read (the model gets a share of it anyway: lib/tools/run.ts). */
const MAX_ANSWER_BYTES = 64 * 1024;

const answerSchema = z.object({ result: z.unknown() });

/** `v1=` and the hex HMAC-SHA256 of `<timestamp>.<body>` under `secret`. */
export async function signToolRequest(secret: string, timestamp: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${timestamp}.${body}`)));
  return `v1=${[...mac].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** The tool a declaration describes, signing with `secret`. */
export function httpTool(declaration: HttpToolDeclaration, secret: string): Tool {
  return {
    name: declaration.name,
    description: declaration.description,
    parameters: declaration.parameters,
    ...(declaration.confirm ? { confirm: true } : {}),
    run: (args, ctx) => callEndpoint(declaration, secret, args, ctx),
  };
}

/**
 * The call's context and key as the endpoint gets them: the ids as they are, or where they are personal data (a
 * phone number, and an SMS place is two) keyed pseudonyms (`p-` and 16 hex digits) of the place's channel and thread,
 * the asker and the whole key: the same on every retry and every call of the same place or person, so the endpoint
 * still drops a repeat and can tell one texter from another, without learning the number.
 */
async function sentIds(ctx: ToolContext) {
  const { place, askerId, idempotencyKey, personalIds, services } = ctx;
  const id = (value: string) => (personalIds ? services.secrets.toolPseudonyms.of(value) : Promise.resolve(value));
  const context = {
    platform: place.platform,
    tenant: place.tenant,
    place: await id(place.channel),
    ...(place.thread ? { thread: await id(place.thread) } : {}),
    asker: await id(askerId),
  };
  return { context, idempotencyKey: await id(idempotencyKey) };
}

async function callEndpoint(
  declaration: HttpToolDeclaration,
  secret: string,
  args: unknown,
  ctx: ToolContext,
): Promise<string> {
  // The endpoint checks the arguments against its own schema; Parley only makes sure they are an object.
  if (typeof args !== "object" || args === null || Array.isArray(args))
    throw new ToolRefusal("the arguments must be a JSON object");
  const { context, idempotencyKey } = await sentIds(ctx);
  const body = JSON.stringify({ tool: declaration.name, arguments: args, context });
  const timestamp = Math.floor(ctx.services.now() / 1000);
  const res = await fetch(declaration.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "idempotency-key": idempotencyKey,
      [TIMESTAMP_HEADER]: String(timestamp),
      [SIGNATURE_HEADER]: await signToolRequest(secret, timestamp, body),
    },
    body,
    signal: ctx.signal,
  });
  const answer = await readCapped(res, MAX_ANSWER_BYTES);
  if (!res.ok) throw new Error(`the tool's endpoint answered ${res.status}`);
  let parsed: ReturnType<typeof answerSchema.safeParse>;
  try {
    parsed = answerSchema.safeParse(JSON.parse(answer.text));
  } catch {
    throw new Error("the tool's endpoint answered with something other than JSON");
  }
  if (!parsed.success || parsed.data.result === undefined)
    throw new Error('the tool\'s endpoint answered without "result"');
  return typeof parsed.data.result === "string" ? parsed.data.result : JSON.stringify(parsed.data.result);
}
