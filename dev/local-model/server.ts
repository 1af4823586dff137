/**
 * @module
 * A local OpenAI-compatible model for `npm run dev` and tests: `POST /v1/chat/completions`, whole or streamed
 * (`stream: true`), at a configurable pace (./pace.ts), with usage figures, calling offered tools by the rules of
 * ./tool-calls.ts (or a rule's `toolCalls`). Control routes: `POST /__script`
 * `{rules: [{match, reply?, status?, delayMs?, times?, firstTokenMs?, tokensPerSecond?, answerTokens?, toolCalls?,
 * afterTools?}]}`,
 * `GET /__requests?match=`, `GET|POST /__config` (the pace), and the shared fault routes of dev/fakes/control.ts on
 * path `/chat.completions` (fields `model`, `stream`, `kind` judge|summary|facts|reply, `text`), with the model's
 * own faults `garbage` and `skip` besides ratelimit/refuse/error/drop_before/hang (a timeout)/drop_after (mid-stream)
 * /delay; `POST /__reset`.
 * Standalone: `node dev/local-model/server.ts` (LOCAL_MODEL_PORT, default 8090).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { countTokens } from "../../lib/context/tokens.ts";
import { PLATFORM_FAULT_KINDS, type FakeFault } from "../fakes/faults.ts";
import { readBody, sendJson, startHttpServer } from "../fakes/http.ts";
import { configRoutes, controlBody, createFakeControl } from "../fakes/control.ts";
import { serveStandalone } from "../serve-standalone.ts";
import { sendCompletion, sendGarbage, streamCompletion, type Completion } from "./completion.ts";
import { callKind, defaultAnswer } from "./default-answer.ts";
import { longAnswer } from "./long-answer.ts";
import { pictureTokens } from "./images.ts";
import { paceFromEnv, paceFromMarker, pacePatchSchema, type Pace } from "./pace.ts";
import { answerFromResults, mayCallTools, ruleCalls, toolResults, type LocalToolCall } from "./tool-calls.ts";
import {
  chatRequestSchema,
  lastUserMessage,
  ModelScript,
  scriptSchema,
  type ChatRequest,
  type ScriptRule,
} from "./script.ts";

export interface LocalModelOptions {
  port: number;
  host?: string;
  /**
   * Overrides the pace from the environment (LOCAL_MODEL_FIRST_TOKEN_MS, LOCAL_MODEL_TOKENS_PER_SECOND,
   * LOCAL_MODEL_ANSWER_TOKENS).
   */
  pace?: Partial<Pace>;
}
export interface RunningLocalModel {
  url: string /* http://127.0.0.1:PORT/v1 */;
  close(): Promise<void>;
}

const DEFAULT_PORT = 8090;
const COMPLETIONS_PATH = "/v1/chat/completions";
/** A 429 tells the caller when to come back, as OpenAI does. */
const RETRY_AFTER_SECONDS = "2";

export async function startLocalModel(opts: LocalModelOptions): Promise<RunningLocalModel> {
  const initialPace: Pace = { ...paceFromEnv(), ...opts.pace };
  let pace = initialPace;
  const script = new ModelScript();
  const control = createFakeControl({
    name: "local-model",
    kinds: [...PLATFORM_FAULT_KINDS, "skip"],
    failRoute: "chat.completions",
    refuse: refuseAsOpenAI,
    onReset() {
      script.reset();
      pace = initialPace;
    },
  });
  control.addRoutes({
    "POST /__script": (body) => {
      script.add(controlBody(scriptSchema, body).rules);
      return { ok: true };
    },
    "GET /__requests": (_body, url) => script.requests(url.searchParams.get("match") ?? ""),
    ...configRoutes(
      () => pace,
      pacePatchSchema,
      (patch) => (pace = { ...pace, ...patch }),
    ),
  });

  async function complete(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const parsed = chatRequestSchema.safeParse(parseJson(await readBody(req)));
    if (!parsed.success)
      return sendJson(res, 400, {
        error: {
          message: parsed.error.issues[0]?.message ?? "invalid chat request",
          type: "invalid_request_error",
          param: null,
          code: null,
        },
      });
    const chat = parsed.data;
    // A model without vision refuses pictures as OpenAI does (400 invalid_request_error): its name says it.
    if (refusesImages(chat))
      return sendJson(res, 400, {
        error: {
          message: "Invalid content type. image_url is only supported by certain models.",
          type: "invalid_request_error",
          param: "messages",
          code: null,
        },
      });
    script.record(chat);
    const text = lastUserMessage(chat);
    const stream = chat.stream === true;
    const admission = await control.admit(
      { route: "chat.completions", model: chat.model, stream: String(stream), kind: callKind(chat), text },
      res,
    );
    if (!admission) return;
    const rule = script.take(chat);
    if (rule?.delayMs) await sleep(rule.delayMs);
    if (rule?.status && rule.status >= 400) {
      const headers: Record<string, string> = rule.status === 429 ? { "retry-after": RETRY_AFTER_SECONDS } : {};
      return sendJson(
        res,
        rule.status,
        { error: { message: `scripted failure ${rule.status}`, type: "server_error", param: null, code: null } },
        headers,
      );
    }
    const fault = admission.fault;
    if (fault?.fault === "hang") return;
    if (fault?.fault === "garbage") return sendGarbage(res, fault.shape, stream);
    const requestPace: Pace = { ...pace, ...rulePace(rule), ...paceFromMarker(text) };
    const calls =
      fault?.fault !== "skip" && mayCallTools(chat)
        ? (rule?.toolCalls ?? (rule?.reply === undefined ? ruleCalls(chat) : []))
        : [];
    const content = fault?.fault === "skip" ? `[SKIP]${fault.text}` : (rule?.reply ?? ownAnswer(chat, requestPace));
    const completion = withUsage(chat, calls.length > 0 ? "" : content, calls);
    if (stream)
      return streamCompletion(res, completion, requestPace, {
        includeUsage: chat.stream_options?.include_usage === true,
        dropAfterHalf: fault?.fault === "drop_after",
      });
    if (fault?.fault === "drop_after") return admission.reply(() => undefined);
    await sendCompletion(res, completion, requestPace);
  }

  const server = await startHttpServer({
    port: opts.port,
    ...(opts.host ? { host: opts.host } : {}),
    async handle(req, res, url) {
      if (await control.handle(req, res, url)) return;
      if (req.method === "POST" && url.pathname === COMPLETIONS_PATH) return complete(req, res);
      sendJson(res, 404, {
        error: {
          message: `no route ${req.method} ${url.pathname}`,
          type: "invalid_request_error",
          param: null,
          code: null,
        },
      });
    },
  });
  return { url: `${server.origin}/v1`, close: server.close };
}

/** Models whose name ends with this read no pictures (tests and the simulator pick one as VISION_MODEL). */
const TEXT_ONLY_MODEL_SUFFIX = "-text-only";

function refusesImages(chat: ChatRequest): boolean {
  return chat.model.endsWith(TEXT_ONLY_MODEL_SUFFIX) && chat.messages.some((m) => "images" in m);
}

/** A bench's paced long answer (after tool results too), else what tool results said, else the default answer. */
function ownAnswer(chat: ChatRequest, pace: Pace): string {
  if (pace.answerTokens && callKind(chat) === "reply") return longAnswer(pace.answerTokens);
  return toolResults(chat).length > 0 ? answerFromResults(chat) : defaultAnswer(chat);
}

function rulePace(rule: ScriptRule | undefined): Partial<Pace> {
  if (!rule) return {};
  return {
    ...(rule.firstTokenMs !== undefined ? { firstTokenMs: rule.firstTokenMs } : {}),
    ...(rule.tokensPerSecond !== undefined ? { tokensPerSecond: rule.tokensPerSecond } : {}),
    ...(rule.answerTokens !== undefined ? { answerTokens: rule.answerTokens } : {}),
  };
}

function withUsage(chat: ChatRequest, content: string, toolCalls: LocalToolCall[] = []): Completion {
  const pictures = (m: ChatRequest["messages"][number]) =>
    "images" in m ? (m.images ?? []).reduce((n, url) => n + pictureTokens(url), 0) : 0;
  const promptTokens = chat.messages.reduce(
    (sum, m) => sum + countTokens(m.content) + countTokens(JSON.stringify(m.tool_calls ?? "")) + pictures(m),
    0,
  );
  const completionTokens = countTokens(content) + countTokens(toolCalls.map((c) => c.name + c.arguments).join(""));
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
  return { model: chat.model, content, usage, ...(toolCalls.length > 0 ? { toolCalls } : {}) };
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** OpenAI's error bodies: 429 `rate_limit_exceeded` with retry-after, a server error, or an error code. */
function refuseAsOpenAI(res: ServerResponse, fault: FakeFault): void {
  if (fault.fault === "ratelimit") {
    const seconds = fault.retryAfter ?? 1;
    return sendJson(
      res,
      429,
      {
        error: {
          message: "Rate limit reached for requests",
          type: "requests",
          param: null,
          code: "rate_limit_exceeded",
        },
      },
      { "retry-after": String(seconds), "retry-after-ms": String(Math.round(seconds * 1000)) },
    );
  }
  if (fault.fault === "refuse")
    return sendJson(res, fault.status, {
      error: {
        message: `scripted failure ${fault.status}`,
        type: "server_error",
        param: null,
        code: fault.error ?? null,
      },
    });
  if (fault.fault === "error")
    sendJson(res, fault.status ?? 400, {
      error: {
        message: `scripted error ${fault.error}`,
        type: "invalid_request_error",
        param: null,
        code: fault.error,
      },
    });
}

if (import.meta.main) {
  serveStandalone("local_model", () => startLocalModel({ port: Number(process.env.LOCAL_MODEL_PORT ?? DEFAULT_PORT) }));
}
