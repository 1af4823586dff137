/**
 * @module
 * What the benches share for the platforms whose fake makes the delivery (Google Chat, Teams): the fake's control
 * routes called with JSON, and a planned message whose delivery is written in the fake before the phases (`prepare`,
 * so that sending it is only the POST) and held until it is sent.
 */
import type { PlannedMessage } from "./traffic.ts";

/** A delivery as a fake hands it back: the body the platform posts and its `Authorization` header. */
export interface HeldDelivery {
  body: unknown;
  authorization: string;
}

/** The fakes a planned message is written in. */
export interface PreparingFakes {
  googleChat: string;
  teams: string;
}

export async function fakeControl<T>(fakeUrl: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${fakeUrl}${path}`, { method: "POST", body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`the fake at ${fakeUrl} refused ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * A planned message's `prepare` (`write` makes the delivery in the fake; null: the platform sends the bot nothing of
 * it, which a bench message never expects) and its `request`, which sends the delivery held since.
 */
export function heldDelivery(
  what: () => string,
  write: (fakes: PreparingFakes) => Promise<HeldDelivery | null>,
  request: (baseUrl: string, delivery: HeldDelivery) => Request,
): Pick<PlannedMessage, "prepare" | "request"> {
  let held: HeldDelivery | undefined;
  return {
    async prepare(fakes) {
      const delivery = await write(fakes);
      if (!delivery) throw new Error(`the platform sent the bot nothing of ${what()}`);
      held = delivery;
    },
    request(baseUrl) {
      if (!held) throw new Error(`no delivery made for ${what()}: prepare it first`);
      return request(baseUrl, held);
    },
  };
}
