/**
 * @module
 * A local OpenAI-compatible model for `npm run dev` and tests: POST /v1/chat/completions (non-streaming), scriptable
 * over HTTP (POST /__script, GET /__requests?match=, POST /__reset). Standalone: `node dev/local-model/server.ts`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { countTokens } from "../../lib/context/tokens.ts";
import { defaultAnswer } from "./default-answer.ts";
import { chatRequestSchema, ModelScript, scriptSchema, type ChatRequest } from "./script.ts";
import { serveStandalone } from "../serve-standalone.ts";

export interface LocalModelOptions {
  port: number;
  host?: string;
}
export interface RunningLocalModel {
  url: string /* http://127.0.0.1:PORT/v1 */;
  close(): Promise<void>;
}

const DEFAULT_PORT = 8090;
const DEFAULT_HOST = "127.0.0.1";
/** A 429 tells the caller when to come back, as OpenAI does. */
const RETRY_AFTER_SECONDS = "2";

export function startLocalModel(opts: LocalModelOptions): Promise<RunningLocalModel> {
  const host = opts.host ?? DEFAULT_HOST;
  const script = new ModelScript();
  const server = createServer((req, res) => {
    route(script, req, res).catch((err: unknown) => send(res, 500, { error: { message: String(err) } }));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, host, () => {
      resolve({
        url: `http://${host}:${opts.port}/v1`,
        close: () => new Promise((done) => { server.closeAllConnections(); server.close(() => done()); }),
      });
    });
  });
}

async function route(script: ModelScript, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://local");
  if (req.method === "POST" && url.pathname === "/v1/chat/completions") {
    const parsed = chatRequestSchema.safeParse(await readJson(req));
    if (!parsed.success) return send(res, 400, { error: { message: "invalid chat request", type: "invalid_request_error" } });
    return complete(script, parsed.data, res);
  }
  if (req.method === "POST" && url.pathname === "/__script") {
    const parsed = scriptSchema.safeParse(await readJson(req));
    if (!parsed.success) return send(res, 400, { error: "expected {rules: [{match, reply?, status?, delayMs?, times?}]}" });
    script.add(parsed.data.rules);
    return send(res, 200, { ok: true });
  }
  if (req.method === "GET" && url.pathname === "/__requests") {
    return send(res, 200, script.requests(url.searchParams.get("match") ?? ""));
  }
  if (req.method === "POST" && url.pathname === "/__reset") {
    script.reset();
    return send(res, 200, { ok: true });
  }
  send(res, 404, { error: { message: `no route ${req.method} ${url.pathname}` } });
}

async function complete(script: ModelScript, chat: ChatRequest, res: ServerResponse): Promise<void> {
  const rule = script.take(chat);
  if (rule?.delayMs) await sleep(rule.delayMs);
  if (rule?.status && rule.status >= 400) {
    const headers: Record<string, string> = rule.status === 429 ? { "retry-after": RETRY_AFTER_SECONDS } : {};
    return send(res, rule.status, { error: { message: `scripted failure ${rule.status}`, type: "server_error" } }, headers);
  }
  const content = rule?.reply ?? defaultAnswer(chat);
  const promptTokens = chat.messages.reduce((sum, m) => sum + countTokens(m.content), 0);
  const completionTokens = countTokens(content);
  send(res, 200, {
    id: `chatcmpl-local-${Date.now().toString(36)}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: chat.model,
    choices: [{ index: 0, message: { role: "assistant", content, refusal: null }, logprobs: null, finish_reason: "stop" }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
  });
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return undefined;
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

if (import.meta.main) {
  serveStandalone("local_model", () => startLocalModel({ port: Number(process.env.LOCAL_MODEL_PORT ?? DEFAULT_PORT) }));
}
