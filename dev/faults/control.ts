/**
 * @module
 * The HTTP control routes of a fault script, in the style of the platform fakes' (dev/fakes/http.ts):
 * `POST /__fail {fault, path?, messageId?, bodyContains?, after?, times?, rate?, seed?, ...params}` adds a rule
 * (answers `{ok: true, rule}`, or 400 saying what is wrong), `GET /__fail` lists the rules still pending,
 * `GET /__faults?field=value` lists the faults injected (filtered on their fields), `POST /__reset` clears both.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { readBody, sendJson } from "../fakes/http.ts";
import type { FaultRuleInput, FaultScript } from "./rules.ts";

const FAIL_PATH = "/__fail";
const FAULTS_PATH = "/__faults";
const RESET_PATH = "/__reset";

/** Answers a control route (`path` relative to wherever the script's controls live); false when it is not one. */
export async function handleFaultControl<Input extends FaultRuleInput>(
  script: FaultScript<Input>,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: URLSearchParams,
): Promise<boolean> {
  if (req.method === "POST" && path === FAIL_PATH) {
    const parsed = parseJsonBody(await readBody(req));
    if (parsed === undefined) {
      sendJson(res, 400, { error: 'the rule is not JSON: send an object like {"fault": "...", "times": 1}' });
      return true;
    }
    try {
      sendJson(res, 200, { ok: true, rule: script.add(parsed) });
    } catch (err) {
      if (!(err instanceof z.ZodError)) throw err;
      sendJson(res, 400, { error: z.prettifyError(err) });
    }
  } else if (req.method === "GET" && path === FAIL_PATH) {
    sendJson(res, 200, script.pending());
  } else if (req.method === "GET" && path === FAULTS_PATH) {
    sendJson(res, 200, script.injected(query));
  } else if (req.method === "POST" && path === RESET_PATH) {
    script.reset();
    sendJson(res, 200, { ok: true });
  } else {
    return false;
  }
  return true;
}

/** The JSON of a control request's body (`{}` when empty); undefined when it is not JSON. */
export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text || "{}");
  } catch {
    return undefined;
  }
}
