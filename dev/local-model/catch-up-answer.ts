/**
 * @module
 * The local model's deterministic catch-up (lib/catch-up/model.ts): for a chunk of messages, a point per message (the
 * first few and the last), each citing its `ref`; for the notes of several chunks (JSON records between the data
 * markers), their points together. Enough
 * to see "catch me up" work, links included, in the simulator without an API key.
 */
import { CATCH_UP_MESSAGES_HEADING } from "../../lib/catch-up/model.ts";

const POINTS = 6;
const QUOTE_LIMIT = 60;

export function catchUpAnswer(request: string): string {
  const lines = request.split("\n");
  if (lines[0] === CATCH_UP_MESSAGES_HEADING) {
    const records = lines.slice(1).flatMap((line) => {
      try {
        const r = JSON.parse(line) as { ref?: unknown; author?: unknown; text?: unknown };
        return typeof r.ref === "number" && typeof r.text === "string"
          ? [{ ref: r.ref, author: String(r.author), text: r.text }]
          : [];
      } catch {
        return [];
      }
    });
    const shown = records.length > POINTS ? [...records.slice(0, POINTS - 1), records.at(-1)!] : records;
    const points = shown.map(
      (r) => `- ${r.author}: ${r.text.length > QUOTE_LIMIT ? `${r.text.slice(0, QUOTE_LIMIT)}…` : r.text} [${r.ref}]`,
    );
    return ["Topics (local model):", ...points].join("\n");
  }
  const points = lines
    .flatMap((line) => noteText(line).split("\n"))
    .filter((line) => line.startsWith("- "))
    .slice(0, 2 * POINTS);
  return ["Topics (local model):", ...points].join("\n");
}

/** A note record's text (`{"part":1,"notes":"…"}`); "" for any other line. */
function noteText(line: string): string {
  try {
    const record = JSON.parse(line) as { notes?: unknown };
    return typeof record.notes === "string" ? record.notes : "";
  } catch {
    return "";
  }
}
