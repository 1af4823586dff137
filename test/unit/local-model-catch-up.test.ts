/**
 * @module
 * The local model's catch-up (dev/local-model/catch-up-answer.ts): a chunk's points cite the messages they come from,
 * and the notes of several chunks come back together, so that the simulator shows "catch me up" with its links.
 */
import { describe, expect, it } from "vitest";
import { catchUpAnswer } from "../../dev/local-model/catch-up-answer.ts";
import { dataBlock, dataLine } from "../../lib/context/data-block.ts";
import { defaultAnswer } from "../../dev/local-model/default-answer.ts";
import {
  CATCH_UP_INSTRUCTION_TAIL,
  CATCH_UP_MESSAGES_HEADING,
  CATCH_UP_NOTES_HEADING,
  catchUpLine,
} from "../../lib/catch-up/model.ts";

describe("the local model's catch-up", () => {
  it("cites each message it mentions, the first few and the last", () => {
    const records = Array.from({ length: 9 }, (_, i) =>
      catchUpLine({ ref: i + 1, author: i % 2 ? "Bob" : "Alice", text: `message ${i + 1}` }),
    );
    const request = [CATCH_UP_MESSAGES_HEADING, ...records, "", CATCH_UP_INSTRUCTION_TAIL].join("\n");
    const answer = defaultAnswer({
      model: "local",
      messages: [
        { role: "system", content: "" },
        { role: "user", content: request },
      ],
    });
    expect(answer.split("\n")).toEqual([
      "Topics (local model):",
      "- Alice: message 1 [1]",
      "- Bob: message 2 [2]",
      "- Alice: message 3 [3]",
      "- Bob: message 4 [4]",
      "- Alice: message 5 [5]",
      "- Alice: message 9 [9]",
    ]);
  });

  it("puts the notes' points together", () => {
    const request = [
      CATCH_UP_NOTES_HEADING,
      dataBlock([
        dataLine({ part: 1, notes: "Topics (local model):\n- Alice: a [1]" }),
        dataLine({ part: 2, notes: "Topics (local model):\n- Bob: b [7]" }),
      ]),
      "",
      CATCH_UP_INSTRUCTION_TAIL,
    ].join("\n");
    expect(catchUpAnswer(request)).toBe("Topics (local model):\n- Alice: a [1]\n- Bob: b [7]");
  });
});
