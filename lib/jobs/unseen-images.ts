/**
 * @module
 * An answer whose pictures the model refused (a VISION_MODEL that cannot read images: ImagesRefused): written again
 * from the text alone, whole rather than streamed (the refusal came before any word showed), and in each
 * conversation the first such answer begins by saying the bot cannot see images (IMAGES_UNSEEN_NOTICE), once.
 */
import type { Prompt } from "../context/prompt.ts";
import { ImagesRefused } from "../llm/image-parts.ts";
import { IMAGES_UNSEEN_NOTICE } from "../notices.ts";
import type { WorkingSign } from "../platforms/answer-stream.ts";
import type { AnswerScope } from "./scope.ts";
import type { ToolUse } from "./tool-loop.ts";
import { writeAnswer } from "./write.ts";

export async function writeSeeing(
  scope: AnswerScope,
  prompt: Prompt,
  sign: WorkingSign,
  onUsage: (tokens: number) => void,
  used: ToolUse,
): Promise<string | null> {
  try {
    return await writeAnswer(scope, prompt, sign, onUsage, used);
  } catch (err) {
    if (!(err instanceof ImagesRefused) || !prompt.images) throw err;
  }
  const { rt, job } = scope;
  const { images, ...rest } = prompt;
  const textOnly: Prompt = { ...rest, tokens: prompt.tokens - images.reduce((sum, image) => sum + image.tokens, 0) };
  const told = await rt.toldOnce.imagesUnseen(job.key, job.conversationId);
  rt.log.warn("images_refused", { ...scope.where, images: images.length, notice: told });
  const answer = await rt.llm.generate(textOnly, { required: job.required, onUsage });
  if (!told) return answer;
  return answer ? `${IMAGES_UNSEEN_NOTICE}\n\n${answer}` : IMAGES_UNSEEN_NOTICE;
}
