/**
 * @module
 * Pictures in a chat completion request: the prompt's images (lib/context/images.ts) become `image_url` parts of
 * the last user turn, the one being answered, each a base64 data URL at `detail: "high"` (what their tokens are
 * counted at). A model that cannot read images answers such a request 400: that becomes ImagesRefused, so that the
 * job answers from the text alone and says so (lib/jobs/write.ts).
 */
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { PromptImage } from "../context/images.ts";
import { RetryLater } from "../errors.ts";
import type { PassMessage } from "./tool-messages.ts";

const HTTP_BAD_REQUEST = 400;
const HTTP_TOO_MANY_REQUESTS = 429;
/** Used when a 429 carries no usable Retry-After. */
const DEFAULT_RETRY_AFTER_SECONDS = 10;

/** The model endpoint refused a request for its images (a model without vision). */
export class ImagesRefused extends Error {
  constructor(model: string) {
    super(`the model refused the request's images (${model})`);
    this.name = "ImagesRefused";
  }
}

/** `messages` as the API takes them, the last user turn carrying `images` after its text. */
export function withImages(
  messages: PassMessage[],
  images: readonly PromptImage[] | undefined,
): ChatCompletionMessageParam[] {
  if (!images?.length) return messages;
  const last = messages.findLastIndex((m) => m.role === "user");
  if (last < 0) return messages;
  return messages.map((m, i) =>
    i !== last || m.role !== "user"
      ? m
      : {
          role: "user",
          content: [
            { type: "text", text: m.content },
            ...images.map((image) => ({
              type: "image_url" as const,
              image_url: { url: image.dataUrl, detail: "high" as const },
            })),
          ],
        },
  );
}

/** What a failed call becomes: RetryLater when rate limited, ImagesRefused when a request with images was refused. */
export function modelCallError(err: unknown, model: string, images: readonly PromptImage[] | undefined): unknown {
  if (!(err instanceof OpenAI.APIError)) return err;
  if (err.status === HTTP_TOO_MANY_REQUESTS)
    return new RetryLater(`the model is rate limited (${model})`, retryAfterSeconds(err.headers));
  if (err.status === HTTP_BAD_REQUEST && images?.length) return new ImagesRefused(model);
  return err;
}

function retryAfterSeconds(headers: Headers | undefined): number {
  const value = headers?.get("retry-after");
  if (!value) return DEFAULT_RETRY_AFTER_SECONDS;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? DEFAULT_RETRY_AFTER_SECONDS : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}
