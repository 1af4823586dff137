/**
 * @module
 * Files people paste, as the platform fakes hold and serve them: a control route puts one in (its bytes in base64,
 * or a PNG the fake draws: ../files/png.ts) and answers the platform's own file object to put in a webhook; the
 * fake then serves the bytes at that object's URL under the platform's access rule (./slack/files.ts,
 * ./discord/files.ts, ./twilio/media.ts).
 */
import type { ServerResponse } from "node:http";
import { z } from "zod";
import { encodePng, type Rgb } from "../files/png.ts";

const hexColour = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/)
  .transform((hex): Rgb => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as unknown as Rgb);

/** What a control route is given: a name, the type the platform reports, and the bytes or a PNG to draw. */
export const fileUploadSchema = z
  .object({
    name: z.string().min(1).max(256),
    /** The MIME type the platform reports (it may differ from what the bytes are: a test of the byte check). */
    type: z.string().max(128).default(""),
    base64: z.string().optional(),
    png: z
      .object({
        width: z.number().int().min(1).max(4096),
        height: z.number().int().min(1).max(4096),
        colour: hexColour,
        bottom: hexColour.optional(),
      })
      .optional(),
    /** Slack: a snippet (text whatever its type). */
    snippet: z.boolean().optional(),
  })
  .refine((f) => (f.base64 === undefined) !== (f.png === undefined), { message: "give base64 or png, one of them" });
export type FileUpload = z.infer<typeof fileUploadSchema>;

export interface PastedFile {
  id: string;
  /** The tenant it belongs to (Slack team, Twilio account; "" where the CDN serves anyone with the URL). */
  owner: string;
  name: string;
  type: string;
  bytes: Buffer;
  width?: number;
  height?: number;
  snippet?: boolean;
  /** Times the platform served it. */
  served: number;
}

export class FileStore {
  #files = new Map<string, PastedFile>();
  #next = 0;

  put(owner: string, id: (n: number) => string, upload: FileUpload): PastedFile {
    const png = upload.png;
    const bytes = png
      ? encodePng(png.width, png.height, png.colour, png.bottom)
      : Buffer.from(upload.base64 ?? "", "base64");
    const file: PastedFile = {
      id: id(++this.#next),
      owner,
      name: upload.name,
      type: upload.type || (png ? "image/png" : ""),
      bytes,
      ...(png ? { width: png.width, height: png.height } : {}),
      ...(upload.snippet ? { snippet: true } : {}),
      served: 0,
    };
    this.#files.set(file.id, file);
    return file;
  }

  get(id: string): PastedFile | undefined {
    return this.#files.get(id);
  }

  /** How often each file was served: benches count the bytes fetched per answer. */
  stats(): { files: number; served: number; bytesServed: number } {
    const all = [...this.#files.values()];
    return {
      files: all.length,
      served: all.reduce((n, f) => n + f.served, 0),
      bytesServed: all.reduce((n, f) => n + f.served * f.bytes.length, 0),
    };
  }

  reset(): void {
    this.#files.clear();
  }
}

export function sendFile(res: ServerResponse, file: PastedFile): void {
  file.served++;
  res.writeHead(200, {
    "Content-Type": file.type || "application/octet-stream",
    "Content-Length": String(file.bytes.length),
  });
  res.end(file.bytes);
}

export function sendRefusal(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", ...headers });
  res.end(text);
}
