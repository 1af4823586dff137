/**
 * @module
 * A bare Gateway client for the tests of the Discord Gateway fake (Node, `ws`): connects, sends payloads, keeps
 * every payload it received, and waits for one that matches.
 */
import WebSocket from "ws";

const sockets: WebSocket[] = [];

/** Ends every client connected so far (after each test). */
export function closeGatewayClients(): void {
  for (const s of sockets.splice(0)) s.terminate();
}

export interface Client {
  events: { op: number; t?: string; d: unknown }[];
  closed: Promise<number>;
  send(payload: unknown): void;
  until(check: (e: Client["events"][number]) => boolean): Promise<Client["events"][number]>;
}

export function connect(url: string): Promise<Client> {
  const socket = new WebSocket(url);
  sockets.push(socket);
  const events: Client["events"] = [];
  const waiters: (() => void)[] = [];
  socket.on("message", (raw) => {
    events.push(JSON.parse(String(raw)));
    for (const w of waiters.splice(0)) w();
  });
  const client: Client = {
    events,
    closed: new Promise((resolve) => socket.on("close", (code) => resolve(code))),
    send: (payload) => socket.send(JSON.stringify(payload)),
    until: async (check) => {
      for (;;) {
        const found = events.find(check);
        if (found) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
  return new Promise((resolve, reject) => {
    socket.once("open", () => resolve(client));
    socket.once("error", reject);
  });
}

/** Calls a control route of the Gateway fake (GET without a body, POST with one); answers its JSON. */
export async function controlFake<T>(controlUrl: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(
    `${controlUrl}${path}`,
    body === undefined ? {} : { method: "POST", body: JSON.stringify(body) },
  );
  return (await res.json()) as T;
}
