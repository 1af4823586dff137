/**
 * @module
 * A picture in a prompt: the person's turn carries it as an image part (lib/llm/image-parts.ts), never as text. Its
 * data URL lives only in the job's memory: the prompt's trace, the draft and every store keep its text alone.
 */

export interface PromptImage {
  /** `data:<type>;base64,<bytes>`: the model cannot fetch a platform's private URL. */
  dataUrl: string;
  /** What the model counts for it (lib/files/image-tokens.ts). */
  tokens: number;
}
