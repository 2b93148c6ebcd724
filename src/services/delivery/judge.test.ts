import { describe, expect, it } from "vitest";
import { judge, type PaidAnswer } from "./judge.js";

const answer = (status: number, text: string, sha256 = "h1"): PaidAnswer => ({ status, contentType: "application/json", body: Buffer.from(text), sha256 });
const schema = { type: "object", properties: { t: { type: "number" } }, required: ["t"] };
const base = { settled: true, outputSchema: schema, otherInputBody: null };

describe("judge", () => {
  it("delivered: settled, 200, a body on its schema", () => {
    expect(judge({ ...base, answer: answer(200, '{"t":1}') })).toEqual({ outcome: "delivered", reason: null });
  });

  it.each([
    [answer(500, "boom"), "undelivered", "status_500"],
    [answer(200, ""), "undelivered", "empty_body"],
    [answer(200, "  \n"), "undelivered", "empty_body"],
    [answer(200, "{}"), "undelivered", "placeholder"],
    [answer(200, '"TODO"'), "undelivered", "placeholder"],
    [answer(200, "Lorem ipsum dolor sit amet"), "undelivered", "placeholder"],
    [answer(401, "sign in"), "refused_after_payment", "status_401"],
    [answer(402, ""), "refused_after_payment", "status_402"],
    [null, "undelivered", "no_answer"],
  ])("settled and then %# is %s (%s)", (a, outcome, reason) => {
    expect(judge({ ...base, answer: a })).toMatchObject({ outcome, reason });
  });

  it("canned: the same body as the answer to another input", () => {
    expect(judge({ ...base, answer: answer(200, '{"t":1}', "same"), otherInputBody: "same" })).toMatchObject({ outcome: "undelivered", reason: "canned" });
    expect(judge({ ...base, answer: answer(200, '{"t":1}', "new"), otherInputBody: "same" }).outcome).toBe("delivered");
  });

  it("invalid_output: JSON off the declared schema, with the validator's words", () => {
    const j = judge({ ...base, answer: answer(200, '{"t":"one"}') });
    expect(j.outcome).toBe("invalid_output");
    expect(j.schema_errors?.[0]).toContain("/t");
  });

  it("no schema declared: any non-empty body is delivered", () => {
    expect(judge({ ...base, outputSchema: null, answer: answer(200, "plain text answer") }).outcome).toBe("delivered");
  });

  it("not settled: nothing paid, nothing judged", () => {
    expect(judge({ ...base, settled: false, answer: answer(500, "x") })).toEqual({ outcome: "not_settled", reason: "status_500" });
    expect(judge({ ...base, settled: false, answer: null })).toEqual({ outcome: "not_settled", reason: "no_answer" });
  });
});
