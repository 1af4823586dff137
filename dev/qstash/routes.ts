/**
 * @module
 * The QStash REST surface the client uses: publish, enqueue, batch, schedules (./schedules.ts), signing keys and the
 * DLQ, behind Bearer auth.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { QStashClock } from "./clock.ts";
import { PUBLISH_FAULTS, publishSubject, type QStashFaults } from "./faults.ts";
import { planPublish, PublishRequestError, type PublishInput, type PublishPlan } from "./publish-request.ts";
import { ScheduleError, type ScheduleBook } from "./schedules.ts";
import type { DlqRecord, QStashStore } from "./store.ts";

const MAX_BODY_BYTES = 1024 * 1024;
const PUBLISH_PATH = "/v2/publish/";
const ENQUEUE_PATH = "/v2/enqueue/";
const DLQ_PATH = "/v2/dlq";
const SCHEDULES_PATH = "/v2/schedules";
const DEFAULT_DLQ_PAGE = 100;

const batchSchema = z.array(
  z.object({
    destination: z.string().min(1),
    headers: z.record(z.string(), z.string()).optional(),
    body: z.string().optional(),
    queue: z.string().min(1).optional(),
  }),
);

export interface RouteContext {
  store: QStashStore;
  schedules: ScheduleBook;
  clock: QStashClock;
  faults: QStashFaults;
  token: string;
  signingKeys: { current: string; next: string };
  /** Called after messages were stored, so that delivery does not wait for the next poll. */
  onPublished(): void;
}

class HttpError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** `rawUrl` is the request's URL inside its lane (dev/faults/lanes.ts). */
export async function handleRequest(
  ctx: RouteContext,
  req: IncomingMessage,
  res: ServerResponse,
  rawUrl: string,
): Promise<void> {
  try {
    if (!authorized(req, ctx.token)) throw new HttpError(401, "Unauthorized");
    const { pathname, searchParams } = new URL(rawUrl, "http://qstash.local");
    const method = req.method ?? "GET";
    if (method === "POST" && rawUrl.startsWith(PUBLISH_PATH)) {
      const input = {
        destination: rawUrl.slice(PUBLISH_PATH.length),
        headers: flatHeaders(req),
        body: await readBody(req),
      };
      return await publishOne(ctx, res, input);
    }
    if (method === "POST" && rawUrl.startsWith(ENQUEUE_PATH)) {
      const rest = rawUrl.slice(ENQUEUE_PATH.length);
      const slash = rest.indexOf("/");
      if (slash <= 0) throw new HttpError(400, "expected /v2/enqueue/{queue}/{destination}");
      const input = {
        queueName: rest.slice(0, slash),
        destination: rest.slice(slash + 1),
        headers: flatHeaders(req),
        body: await readBody(req),
      };
      return await publishOne(ctx, res, input);
    }
    if (pathname === SCHEDULES_PATH || pathname.startsWith(`${SCHEDULES_PATH}/`)) {
      return await scheduleRequest(ctx.schedules, req, res, rawUrl.slice(SCHEDULES_PATH.length + 1));
    }
    if (method === "POST" && pathname === "/v2/batch") return await publishBatch(ctx, res, await readBody(req));
    if (method === "GET" && pathname === "/v2/keys") return send(res, 200, ctx.signingKeys);
    if (method === "GET" && pathname === DLQ_PATH)
      return send(res, 200, dlqPage(await ctx.store.listDlq(), searchParams));
    if (method === "DELETE" && pathname.startsWith(`${DLQ_PATH}/`)) {
      const deleted = await ctx.store.deleteDlq([decodeURIComponent(pathname.slice(DLQ_PATH.length + 1))]);
      if (deleted === 0) throw new HttpError(404, "dlq message not found");
      return send(res, 200, { deleted });
    }
    if (method === "DELETE" && pathname === DLQ_PATH) {
      return send(res, 200, { deleted: await ctx.store.deleteDlq(searchParams.getAll("dlqIds")) });
    }
    throw new HttpError(404, `${method} ${pathname} is not served by the local QStash stand-in`);
  } catch (err) {
    if (err instanceof HttpError || err instanceof ScheduleError) return send(res, err.status, { error: err.message });
    if (err instanceof PublishRequestError) return send(res, 400, { error: err.message });
    send(res, 500, { error: err instanceof Error ? err.message : String(err) });
  }
}

/** `rest` is the URL after `/v2/schedules/`: a destination (create), `{id}`, `{id}/pause`, `{id}/resume`, or "". */
async function scheduleRequest(book: ScheduleBook, req: IncomingMessage, res: ServerResponse, rest: string) {
  const method = req.method ?? "GET";
  if (method === "POST" && rest !== "") {
    return send(
      res,
      200,
      await book.create({ destination: rest, headers: flatHeaders(req), body: await readBody(req) }),
    );
  }
  const [id = "", action, ...extra] = rest.split("?")[0]?.split("/").map(decodeURIComponent) ?? [];
  if (method === "GET" && id === "") return send(res, 200, await book.list());
  if (id !== "" && extra.length === 0) {
    if (method === "GET" && action === undefined) return send(res, 200, await book.get(id));
    const change =
      method === "DELETE" && action === undefined
        ? book.delete(id)
        : method === "PATCH" && action === "pause"
          ? book.pause(id)
          : method === "PATCH" && action === "resume"
            ? book.resume(id)
            : undefined;
    if (change) {
      await change;
      return void res.writeHead(200).end();
    }
  }
  throw new HttpError(404, `${method} /v2/schedules/${rest} is not served by the local QStash stand-in`);
}

async function publishOne(ctx: RouteContext, res: ServerResponse, input: PublishInput): Promise<void> {
  const plan = planPublish(input, ctx.clock.now());
  const fault = publishFault(ctx, [plan]);
  const { messageId, deduplicated } = await ctx.store.publish(plan);
  ctx.onPublished();
  if (fault) {
    fault.record.messageId = messageId;
    return void res.socket?.destroy();
  }
  send(res, deduplicated ? 202 : 201, deduplicated ? { messageId, deduplicated } : { messageId });
}

/**
 * Throws the refusal of a `refuse_publish` fault before anything is stored; returns a `drop_after_store` fault
 * for the caller to drop the connection once the messages are stored. A batch is refused or dropped as a whole.
 */
function publishFault(ctx: RouteContext, plans: PublishPlan[]) {
  for (const plan of plans) {
    const fault = ctx.faults.take(PUBLISH_FAULTS, publishSubject(plan.message));
    if (fault?.rule.fault === "refuse_publish") {
      throw new HttpError(fault.rule.status, `publish refused by an injected fault (rule ${fault.rule.id})`);
    }
    if (fault) return fault;
  }
  return undefined;
}

async function publishBatch(ctx: RouteContext, res: ServerResponse, body: Buffer): Promise<void> {
  const parsed = batchSchema.safeParse(parseJson(body));
  if (!parsed.success)
    throw new HttpError(400, `invalid batch body: ${parsed.error.issues[0]?.message ?? "bad shape"}`);
  const plans = parsed.data.map((item) =>
    planPublish(
      {
        destination: item.destination,
        queueName: item.queue,
        headers: Object.fromEntries(Object.entries(item.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
        body: Buffer.from(item.body ?? ""),
      },
      ctx.clock.now(),
    ),
  );
  const fault = publishFault(ctx, plans);
  const results = [];
  for (const plan of plans) {
    const { messageId, deduplicated } = await ctx.store.publish(plan);
    results.push(
      deduplicated ? { messageId, url: plan.message.url, deduplicated } : { messageId, url: plan.message.url },
    );
  }
  ctx.onPublished();
  if (fault) return void res.socket?.destroy();
  send(res, 201, results);
}

function dlqPage(records: DlqRecord[], query: URLSearchParams): { messages: DlqRecord[]; cursor?: string } {
  const ids = new Set(query.getAll("dlqIds"));
  const url = query.get("url");
  const matching = records.filter((r) => (ids.size === 0 || ids.has(r.dlqId)) && (url === null || r.url === url));
  const start = Number(query.get("cursor") ?? 0) || 0;
  const count = Number(query.get("count") ?? DEFAULT_DLQ_PAGE) || DEFAULT_DLQ_PAGE;
  const end = start + count;
  return end < matching.length
    ? { messages: matching.slice(start, end), cursor: String(end) }
    : { messages: matching.slice(start) };
}

function authorized(req: IncomingMessage, token: string): boolean {
  const given = Buffer.from(req.headers.authorization ?? "");
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `message body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    throw new HttpError(400, "body is not JSON");
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}
