/**
 * @module
 * A refused request: the HTTP status and the message the stand-in answers with, in Upstash's error envelope.
 */

export class VectorError extends Error {
  override readonly name = "VectorError";
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}
