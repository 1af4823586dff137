/**
 * @module
 * Calls the Slack fake the way Slack's clients do (JSON with a Bearer token, or a form as the official Node
 * client sends it, arrays and objects JSON-encoded), and reads its control routes.
 */
import { startSlackFake, type SlackSettingsPatch } from "../../dev/fakes/slack.ts";

export const TOKEN = "xoxb-test-token";

interface SlackAnswer {
  status: number;
  retryAfter: string | null;
  body: Record<string, unknown> & { ok?: boolean; error?: string };
}

export interface SlackHarness {
  url: string;
  call(
    method: string,
    params: Record<string, unknown>,
    opts?: { token?: string; form?: boolean; basic?: string },
  ): Promise<SlackAnswer>;
  control<T = unknown>(path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

export async function startSlack(settings?: SlackSettingsPatch): Promise<SlackHarness> {
  const fake = await startSlackFake({ port: 0, ...(settings ? { settings } : {}) });
  const origin = fake.url.replace(/\/api$/, "");
  return {
    url: fake.url,
    async call(method, params, opts = {}) {
      const token = opts.token ?? TOKEN;
      const headers: Record<string, string> = opts.basic
        ? { Authorization: `Basic ${Buffer.from(opts.basic).toString("base64")}` }
        : token
          ? { Authorization: `Bearer ${token}` }
          : {};
      const body = opts.form
        ? new URLSearchParams(
            Object.entries(params).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
          )
        : JSON.stringify(params);
      headers["Content-Type"] = opts.form ? "application/x-www-form-urlencoded" : "application/json; charset=utf-8";
      const res = await fetch(`${fake.url}/${method}`, { method: "POST", headers, body });
      const text = await res.text();
      return {
        status: res.status,
        retryAfter: res.headers.get("retry-after"),
        body: (res.headers.get("content-type")?.includes("json")
          ? JSON.parse(text)
          : { raw: text }) as SlackAnswer["body"],
      };
    },
    async control(path, body) {
      const res = await fetch(
        `${origin}${path}`,
        body === undefined ? {} : { method: "POST", body: JSON.stringify(body) },
      );
      if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as never;
    },
    close: fake.close,
  };
}
