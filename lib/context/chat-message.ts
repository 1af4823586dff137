/**
 * @module
 * One message of a chat prompt, as the model reads it. Its own module so that the token counter, the turn builder
 * and the prompt builder all depend on it rather than on each other.
 */

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}
