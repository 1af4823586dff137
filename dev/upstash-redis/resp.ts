/**
 * @module
 * RESP2, the wire format spoken to redis-server: encodes commands and parses replies incrementally.
 * Bulk strings stay Buffers so binary values survive until the HTTP layer decides how to encode them.
 */

/** An error reply (`-ERR …`), kept as a value because inside EXEC or a pipeline it is one result among others. */
export class RedisErrorReply {
  readonly message: string;
  constructor(message: string) {
    this.message = message;
  }
}

/** Status and bulk strings are Buffers, integers numbers, nil null, arrays nested. */
export type RedisReply = Buffer | number | null | RedisErrorReply | RedisReply[];

const CRLF = Buffer.from("\r\n");

/** One command as a RESP array of bulk strings. */
export function encodeCommand(args: readonly Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${args.length}\r\n`)];
  for (const arg of args) parts.push(Buffer.from(`$${arg.length}\r\n`), arg, CRLF);
  return Buffer.concat(parts);
}

/** Outcome of one parse attempt: a reply and where the next one starts, or how many bytes are needed at least. */
type ParseStep = { reply: RedisReply; next: number } | { needed: number };

/** Parses one reply starting at `offset`; when `buf` ends too early, says how long it must be at least. */
function parseReply(buf: Buffer, offset: number): ParseStep {
  const lineEnd = buf.indexOf(CRLF, offset);
  if (lineEnd < 0) return { needed: buf.length + 1 };
  const line = buf.toString("utf8", offset + 1, lineEnd);
  const afterLine = lineEnd + 2;
  switch (buf[offset]) {
    case 0x2b /* + */:
      return { reply: buf.subarray(offset + 1, lineEnd), next: afterLine };
    case 0x2d /* - */:
      return { reply: new RedisErrorReply(line), next: afterLine };
    case 0x3a /* : */:
      return { reply: Number(line), next: afterLine };
    case 0x24 /* $ */:
      {
        const length = Number(line);
        if (length < 0) return { reply: null, next: afterLine };
        const end = afterLine + length;
        if (buf.length < end + 2) return { needed: end + 2 };
        return { reply: Buffer.from(buf.subarray(afterLine, end)), next: end + 2 };
      }
    case 0x2a /* * */:
      {
        const count = Number(line);
        if (count < 0) return { reply: null, next: afterLine };
        const items: RedisReply[] = [];
        let next = afterLine;
        for (let i = 0; i < count; i++) {
          const step = parseReply(buf, next);
          if ("needed" in step) return step;
          items.push(step.reply);
          next = step.next;
        }
        return { reply: items, next };
      }
    default:
      throw new Error(`unexpected RESP2 type byte 0x${(buf[offset] ?? 0).toString(16)}`);
  }
}

/** Collects socket chunks and hands out complete replies, copying only once enough bytes have arrived. */
export class ReplyReader {
  #chunks: Buffer[] = [];
  #length = 0;
  #needed = 1;

  /** Adds a chunk and returns every reply it completed, in order. */
  push(chunk: Buffer): RedisReply[] {
    this.#chunks.push(chunk);
    this.#length += chunk.length;
    if (this.#length < this.#needed) return [];
    let buf = this.#chunks.length === 1 ? chunk : Buffer.concat(this.#chunks, this.#length);
    const replies: RedisReply[] = [];
    let offset = 0;
    while (offset < buf.length) {
      const step = parseReply(buf, offset);
      if ("needed" in step) {
        this.#needed = step.needed - offset;
        break;
      }
      replies.push(step.reply);
      offset = step.next;
    }
    buf = buf.subarray(offset);
    this.#chunks = buf.length > 0 ? [buf] : [];
    this.#length = buf.length;
    if (buf.length === 0) this.#needed = 1;
    return replies;
  }
}
