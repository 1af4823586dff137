/**
 * @module
 * A refused request: the HTTP status and the message the stand-in answers with, in Upstash's error envelope.
 */

export class VectorError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = "VectorError";
    this.status = status;
  }
}
