/**
 * @module
 * Turns Redis replies into the JSON values of the Upstash REST protocol. With `Upstash-Encoding: base64` every
 * string at every depth (status replies such as "OK" too) is base64 of its bytes; numbers and null pass through.
 */
import { isErrorReply, type RedisReply } from "./redis-link.ts";

/** The request header, and its value, with which the client asks for base64 strings. */
export const ENCODING_HEADER = "upstash-encoding";
export const BASE64_ENCODING = "base64";

export type JsonReply = string | number | null | JsonReply[];

/** A reply as JSON; an error nested inside an array (e.g. from a script) becomes its text, never encoded. */
export function toJsonReply(reply: RedisReply, base64: boolean): JsonReply {
  if (reply === null || typeof reply === "number") return reply;
  if (isErrorReply(reply)) return reply.message;
  if (Array.isArray(reply)) return reply.map((item) => toJsonReply(item, base64));
  return reply.toString(base64 ? "base64" : "utf8");
}

/** One item of a `/pipeline` or `/multi-exec` answer. */
export type ResultItem = { result: JsonReply } | { error: string };

export function toResultItem(reply: RedisReply, base64: boolean): ResultItem {
  return isErrorReply(reply) ? { error: reply.message } : { result: toJsonReply(reply, base64) };
}
