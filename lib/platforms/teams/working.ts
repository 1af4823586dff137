/**
 * @module
 * The sign that the bot is working on a Teams answer: a `typing` activity in the conversation ("Send and receive
 * messages": Teams shows "… is typing" for a few seconds or until the bot's message arrives), renewed every three
 * seconds until the sign comes down. A typing activity that fails is logged and left: the answer still comes. In a
 * 1:1 chat where answers stream, the sign is the status line that begins the answer's stream (./status-line.ts),
 * which the answer itself takes down.
 */
import { errorMessage } from "../../log.ts";
import type { WorkingSign } from "../answer-stream.ts";
import { callConnector, type TeamsContext } from "./api.ts";
import { showStatusLine } from "./status-line.ts";
import type { TeamsTarget } from "./target.ts";

const TYPING_RENEW_MS = 3_000;

export async function teamsWorking(ctx: TeamsContext, target: TeamsTarget): Promise<WorkingSign> {
  if (target.personal && ctx.settings.STREAMING) {
    await showStatusLine(ctx, target);
    return { stop: async () => undefined };
  }
  const typing = () => callConnector(ctx, "send typing", target, { type: "typing" });
  const quietly = (err: unknown) =>
    ctx.log.warn("working_sign_failed", { platform: "teams", what: "typing", error: errorMessage(err) });
  await typing().catch(quietly);
  const renew = setInterval(() => void typing().catch(quietly), TYPING_RENEW_MS);
  return {
    async stop() {
      clearInterval(renew);
    },
  };
}
