/**
 * @module
 * An access token bought with a platform secret (Google Chat's service-account assertion, Teams' client
 * credentials), kept within the isolate until a margin before it expires, and bought once at a time per key however
 * many calls ask: a job makes one exchange an hour, not one a call. A token the platform refused before its time is
 * forgotten, so that the next call buys another.
 */

export interface KeptToken {
  token: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

export class TokenKeeper {
  readonly #tokens = new Map<string, KeptToken>();
  readonly #pending = new Map<string, Promise<KeptToken>>();
  readonly #marginMs: number;

  /** `marginMs`: a token is taken for expired this long before it is, so a call made with it lands within its life. */
  constructor(marginMs: number) {
    this.#marginMs = marginMs;
  }

  /** The token kept under `id`, or the one `exchange` buys (shared by every caller while it is being bought). */
  async token(id: string, now: number, exchange: () => Promise<KeptToken>): Promise<string> {
    const kept = this.#tokens.get(id);
    if (kept && kept.expiresAt - this.#marginMs > now) return kept.token;
    let buying = this.#pending.get(id);
    if (!buying) {
      buying = exchange().finally(() => this.#pending.delete(id));
      this.#pending.set(id, buying);
    }
    const fresh = await buying;
    this.#tokens.set(id, fresh);
    return fresh.token;
  }

  forget(id: string): void {
    this.#tokens.delete(id);
  }
}
