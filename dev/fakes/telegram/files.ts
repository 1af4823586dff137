/**
 * @module
 * Files people send a bot on the Telegram fake. `POST /__files {bot_id?, name, type, base64 | png}` → what a message
 * carries for it: `{photo: [PhotoSize]}` for a picture (Telegram re-encodes photos; the fake keeps the bytes as
 * given), `{document: Document}` for anything else; pass it as `media` to `POST /__message`. `getFile {file_id}`
 * answers the File (`file_path`) to the bot it was sent to, and `GET /file/bot<token>/<file_path>` serves the bytes
 * to that bot's token only (Bot API: "https://api.telegram.org/file/bot<token>/<file_path>").
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { controlBody, type ControlRoute } from "../control.ts";
import { fileUploadSchema, sendFile, sendRefusal, type FileStore } from "../files.ts";
import { TELEGRAM_FAKE_BOT } from "./bot.ts";
import { badRequest } from "./errors.ts";
import type { Args } from "./params.ts";
import type { FakeBot, World } from "./world.ts";

const FILE_PATH = /^\/file\/bot([^/]+)\/((?:photos|documents)\/file_\d+\.\w+)$/;
const uploadSchema = fileUploadSchema.and(z.object({ bot_id: z.number().int().default(TELEGRAM_FAKE_BOT.id) }));

/** Where each file is served: its `file_path`, by file id. */
const paths = new Map<string, string>();

export function telegramFileRoutes(files: FileStore): Record<string, ControlRoute> {
  return {
    "POST /__files": (body) => {
      const upload = controlBody(uploadSchema, body);
      const file = files.put(String(upload.bot_id), (n) => `AgAC${n.toString(36).padStart(6, "0")}-fake`, upload);
      const unique = { file_id: file.id, file_unique_id: `AQAD${file.id}`, file_size: file.bytes.length };
      const photo = Boolean(upload.png) || file.type.startsWith("image/");
      paths.set(
        file.id,
        `${photo ? "photos" : "documents"}/file_${paths.size + 1}.${photo ? "jpg" : (file.name.split(".").pop() ?? "bin")}`,
      );
      if (photo) return { photo: [{ ...unique, width: file.width ?? 1, height: file.height ?? 1 }] };
      return { document: { ...unique, file_name: file.name, ...(file.type ? { mime_type: file.type } : {}) } };
    },
  };
}

/** The Bot API's getFile: the file's path, for the bot it was sent to. */
export function getFile(files: FileStore, bot: FakeBot, args: Args): unknown {
  const id = String(args.file_id ?? "");
  const file = files.get(id);
  if (!file || file.owner !== String(bot.id)) throw badRequest("invalid file_id");
  return {
    file_id: file.id,
    file_unique_id: `AQAD${file.id}`,
    file_size: file.bytes.length,
    file_path: paths.get(file.id),
  };
}

/** Serves a file's download URL (true when the request was one). */
export function serveTelegramFile(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  files: FileStore,
  world: World,
): boolean {
  const match = req.method === "GET" ? FILE_PATH.exec(url.pathname) : null;
  if (!match) return false;
  const bot = world.botByToken(decodeURIComponent(match[1]!));
  const id = [...paths].find(([, path]) => path === match[2])?.[0];
  const file = id ? files.get(id) : undefined;
  if (!bot || !file || file.owner !== String(bot.id)) {
    sendRefusal(res, 404, JSON.stringify({ ok: false, error_code: 404, description: "Not Found" }));
    return true;
  }
  sendFile(res, file);
  return true;
}
