import { describe, expect, it } from "vitest";
import { approvalReply, carrierKeyword } from "../../lib/platforms/twilio/keywords.ts";
import {
  countSmsSegments,
  fitSmsReply,
  SMS_MAX_BODY_CHARS,
  smsLengthNote,
} from "../../lib/platforms/twilio/sms-text.ts";

describe("SMS segments", () => {
  it("counts GSM-7 text at 160 for one segment and 153 per part after that", () => {
    expect(countSmsSegments("")).toEqual({ encoding: "GSM-7", segments: 0 });
    expect(countSmsSegments("a".repeat(160))).toEqual({ encoding: "GSM-7", segments: 1 });
    expect(countSmsSegments("a".repeat(161))).toEqual({ encoding: "GSM-7", segments: 2 });
    expect(countSmsSegments("a".repeat(306))).toEqual({ encoding: "GSM-7", segments: 2 });
    expect(countSmsSegments("a".repeat(307))).toEqual({ encoding: "GSM-7", segments: 3 });
    expect(countSmsSegments("Ça coûte 5 € à Zürich?").encoding).toBe("UCS-2"); // û is not GSM-7
    expect(countSmsSegments("Ça coute 5 € à Zürich?").encoding).toBe("GSM-7");
  });

  it("counts extension characters as two septets and never splits one across parts", () => {
    expect(countSmsSegments("€".repeat(80))).toEqual({ encoding: "GSM-7", segments: 1 });
    expect(countSmsSegments("€".repeat(81))).toEqual({ encoding: "GSM-7", segments: 2 });
    // 152 plain septets then an escape pair: the pair moves whole to the second part.
    expect(countSmsSegments(`${"a".repeat(152)}[${"a".repeat(152)}`)).toEqual({ encoding: "GSM-7", segments: 3 });
  });

  it("counts UCS-2 text at 70, then 67 per part, keeping an emoji's surrogate pair together", () => {
    expect(countSmsSegments(`${"é".repeat(69)}ü`)).toEqual({ encoding: "GSM-7", segments: 1 });
    expect(countSmsSegments("ж".repeat(70))).toEqual({ encoding: "UCS-2", segments: 1 });
    expect(countSmsSegments("ж".repeat(71))).toEqual({ encoding: "UCS-2", segments: 2 });
    expect(countSmsSegments("ж".repeat(134))).toEqual({ encoding: "UCS-2", segments: 2 });
    expect(countSmsSegments(`${"ж".repeat(66)}😀${"ж".repeat(10)}`)).toEqual({ encoding: "UCS-2", segments: 2 });
    expect(countSmsSegments(`${"ж".repeat(66)}😀${"ж".repeat(66)}`)).toEqual({ encoding: "UCS-2", segments: 3 });
  });
});

describe("fitting an answer to SMS", () => {
  const sentence = (i: number) => `Sentence number ${i} says something useful.`;
  const long = Array.from({ length: 40 }, (_, i) => sentence(i + 1)).join(" ");

  it("leaves a short answer alone apart from typography that would force UCS-2", () => {
    expect(fitSmsReply("  It’s “fine” — really…  ", 320)).toBe(`It's "fine" - really...`);
    expect(countSmsSegments(fitSmsReply("It’s fine", 320)).encoding).toBe("GSM-7");
  });

  it("cuts a long answer at a sentence end within the target", () => {
    const fitted = fitSmsReply(long, 320);
    expect(fitted.length).toBeLessThanOrEqual(320);
    expect(fitted.length).toBeGreaterThan(160);
    expect(fitted).toMatch(/useful\.$/);
    expect(long.startsWith(fitted)).toBe(true);
  });

  it("cuts at a word and marks the cut when no sentence ends in reach", () => {
    const fitted = fitSmsReply("word ".repeat(200), 100);
    expect(fitted.length).toBeLessThanOrEqual(100);
    expect(fitted).toMatch(/word\.\.\.$/);
  });

  it("never exceeds Twilio's 1,600 characters whatever the target", () => {
    expect(fitSmsReply(long.repeat(3), 5_000).length).toBeLessThanOrEqual(SMS_MAX_BODY_CHARS);
  });

  it("tells the model the channel and the length to aim for", () => {
    expect(smsLengthNote(320)).toMatch(/SMS/);
    expect(smsLengthNote(320)).toMatch(/320 characters/);
  });
});

describe("carrier keywords", () => {
  it("recognises the whole-message keywords in any case, and nothing inside a sentence", () => {
    for (const word of ["STOP", "stop", " Stop ", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"]) {
      expect(carrierKeyword(word)).toBe("opt_out");
    }
    for (const word of ["START", "yes", "Unstop"]) expect(carrierKeyword(word)).toBe("opt_in");
    for (const word of ["HELP", "info"]) expect(carrierKeyword(word)).toBe("help");
    for (const text of ["please stop", "stop it now", "yes please", "", "STOP STOP"])
      expect(carrierKeyword(text)).toBeNull();
  });
});

describe("a reply to an approval's question", () => {
  it("is a whole message of YES or NO, in any case, with at most a little final punctuation", () => {
    for (const text of ["YES", "yes", " Yes! ", "yes.", "YES!!"]) expect(approvalReply(text)).toBe("approve");
    for (const text of ["NO", "no", "No.", " nO? "]) expect(approvalReply(text)).toBe("deny");
    for (const text of ["yes please", "no way", "yeah", "nope", "", "YES NO", "!yes", "yes!!!!"])
      expect(approvalReply(text)).toBeUndefined();
    // NO is none of Twilio's opt-out keywords; YES stays its opt-in keyword.
    expect(carrierKeyword("NO")).toBeNull();
    expect(carrierKeyword("YES")).toBe("opt_in");
  });
});
