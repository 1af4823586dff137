/**
 * @module
 * What chat.postEphemeral (./ephemeral.ts) showed one person each, for the fake's `GET /__ephemerals`.
 */

export interface SlackEphemeral {
  team: string;
  channel: string;
  user: string;
  text: string;
  thread_ts?: string;
  message_ts: string;
}

export class Ephemerals {
  #all: SlackEphemeral[] = [];
  add(ephemeral: SlackEphemeral): void {
    this.#all.push(ephemeral);
  }
  all(): SlackEphemeral[] {
    return [...this.#all];
  }
  reset(): void {
    this.#all = [];
  }
}
