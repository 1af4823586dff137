/**
 * @module
 * Files on the Slack fake. `POST /__files {team?, name, type, base64 | png, snippet?}` → the file object a
 * `file_share` message carries (`id`, `name`, `mimetype`, `filetype`, `mode`, `size`, `url_private`, `original_w`/`_h`
 * for an image); `GET /__files/stats`: files held, times served, bytes served. `GET /files-pri/<team>-<file id>/<name>`
 * serves it as Slack serves `url_private`: only with a bot
 * token of the file's workspace in `Authorization: Bearer` (no token, another workspace's or a revoked one is sent
 * to the sign-in page, as a browser without a session is), and only to an app granted `files:read` (else 403).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { controlBody, type ControlRoute } from "../control.ts";
import { fileUploadSchema, sendFile, sendRefusal, type FileStore } from "../files.ts";
import type { Workspaces } from "./workspaces.ts";
import { SLACK_FAKE_DEFAULT_TEAM } from "./workspaces.ts";

const FILES_PATH = /^\/files-pri\/(T[A-Z0-9]+)-(F[A-Z0-9]+)\/[^/]+$/;
const SIGNIN_PATH = "/signin";
const FILES_READ = "files:read";

const uploadSchema = fileUploadSchema.and(
  z.object({
    team: z
      .string()
      .regex(/^T[A-Z0-9]+$/)
      .default(SLACK_FAKE_DEFAULT_TEAM.id),
  }),
);

export function slackFileRoutes(files: FileStore, origin: () => string): Record<string, ControlRoute> {
  return {
    "POST /__files": (body) => {
      const upload = controlBody(uploadSchema, body);
      const file = files.put(upload.team, (n) => `F0FILE${n.toString(36).toUpperCase()}`, upload);
      return {
        id: file.id,
        name: file.name,
        title: file.name,
        mimetype: file.type,
        filetype: file.snippet ? "text" : (file.name.split(".").pop() ?? ""),
        mode: file.snippet ? "snippet" : "hosted",
        size: file.bytes.length,
        url_private: `${origin()}/files-pri/${upload.team}-${file.id}/${encodeURIComponent(file.name)}`,
        url_private_download: `${origin()}/files-pri/${upload.team}-${file.id}/download/${encodeURIComponent(file.name)}`,
        ...(file.width ? { original_w: file.width, original_h: file.height } : {}),
      };
    },
    "GET /__files/stats": () => files.stats(),
  };
}

/** Serves `url_private` (true when the request was one of the file routes). */
export function serveSlackFile(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  files: FileStore,
  workspaces: Workspaces,
  origin: string,
): boolean {
  if (req.method !== "GET") return false;
  if (url.pathname === SIGNIN_PATH) {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end("<!DOCTYPE html><html><body>Sign in to your workspace</body></html>");
    return true;
  }
  const match = FILES_PATH.exec(url.pathname);
  if (!match) return false;
  const file = files.get(match[2]!);
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
  const auth = workspaces.authenticate(token);
  if (!file || file.owner !== match[1] || "error" in auth || auth.team.id !== file.owner) {
    sendRefusal(res, 302, "", { Location: `${origin}${SIGNIN_PATH}?redir=${encodeURIComponent(url.pathname)}` });
    return true;
  }
  if (!auth.team.scope.split(",").includes(FILES_READ)) {
    sendRefusal(res, 403, `missing_scope: ${FILES_READ}`);
    return true;
  }
  sendFile(res, file);
  return true;
}
