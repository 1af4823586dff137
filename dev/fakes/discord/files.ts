/**
 * @module
 * Attachments on the Discord fake, served as Discord's CDN serves them: to anyone holding the URL, no token, as long
 * as its signature (`ex`, `is`, `hm`) is the one Discord signed it with; an unsigned or altered URL is refused
 * ("This content is no longer available.", 404). `POST /__attachments {channel_id?, name, type, base64 | png}` → the
 * attachment object a MESSAGE_CREATE carries (`id`, `filename`, `size`, `url`, `proxy_url`, `content_type`, and
 * `width`/`height` for an image).
 */
import { createHmac } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { controlBody, type ControlRoute } from "../control.ts";
import { fileUploadSchema, sendFile, sendRefusal, type FileStore } from "../files.ts";

const ATTACHMENT_PATH = /^\/attachments\/(\d+)\/(\d+)\/[^/]+$/;
const SIGNING_KEY = "discord-fake-cdn";
const DAY_SECONDS = 24 * 60 * 60;

const uploadSchema = fileUploadSchema.and(z.object({ channel_id: z.string().regex(/^\d+$/).default("1") }));

const signature = (path: string, expires: string) =>
  createHmac("sha256", SIGNING_KEY).update(`${path}|${expires}`).digest("hex");

export function discordFileRoutes(
  files: FileStore,
  nextId: () => string,
  origin: () => string,
): Record<string, ControlRoute> {
  return {
    "POST /__attachments": (body) => {
      const upload = controlBody(uploadSchema, body);
      const file = files.put("", nextId, upload);
      const path = `/attachments/${upload.channel_id}/${file.id}/${encodeURIComponent(file.name)}`;
      const now = Math.floor(Date.now() / 1000);
      const expires = (now + DAY_SECONDS).toString(16);
      const query = `?ex=${expires}&is=${now.toString(16)}&hm=${signature(path, expires)}&`;
      return {
        id: file.id,
        filename: file.name,
        size: file.bytes.length,
        url: `${origin()}${path}${query}`,
        proxy_url: `${origin()}${path}${query}`,
        ...(file.type ? { content_type: file.type } : {}),
        ...(file.width ? { width: file.width, height: file.height } : {}),
      };
    },
  };
}

/** Serves an attachment's CDN URL (true when the request was one). */
export function serveDiscordAttachment(req: IncomingMessage, res: ServerResponse, url: URL, files: FileStore): boolean {
  const match = req.method === "GET" ? ATTACHMENT_PATH.exec(url.pathname) : null;
  if (!match) return false;
  const file = files.get(match[2]!);
  const expires = url.searchParams.get("ex") ?? "";
  const fresh = parseInt(expires, 16) * 1000 > Date.now();
  if (!file || !fresh || url.searchParams.get("hm") !== signature(url.pathname, expires)) {
    sendRefusal(res, 404, "This content is no longer available.");
    return true;
  }
  sendFile(res, file);
  return true;
}
