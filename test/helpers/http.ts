/** The JSON body of a response, loosely typed: tests assert its shape. */
export const body = async (res: Response): Promise<any> => res.json();

/**
 * POSTs input a paid route refuses. Unpaid, it must answer 402 whose `error` names the problem
 * (decision 0001); with a payment header (never read: input is checked first) it answers the
 * refusal itself, which is returned for the test's own assertions.
 */
export async function refusedInput(url: string, payload: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const { expect } = await import("vitest");
  const send = (extra: Record<string, string>) =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers, ...extra },
      body: typeof payload === "string" ? payload : JSON.stringify(payload),
    });
  const unpaid = await send({});
  const challenge = await body(unpaid);
  expect(unpaid.status, JSON.stringify(payload)).toBe(402);
  const paid = await send({ "payment-signature": "never-read" });
  const refusal = await body(paid.clone());
  expect(challenge.error).toBe(`${refusal.error}: ${refusal.message} (a paid request with this input is answered ${paid.status} and charged nothing)`);
  return paid;
}
