/**
 * @module
 * Who is who in the fake's workspaces, as users.info and conversations.info tell an app (./people.ts): the
 * workspace's admins and owners (`is_admin`, `is_owner`), and who created each channel (`creator`). Nobody is an
 * admin and a channel's creator is a person of its own until a test or the simulator says otherwise
 * (`POST /__roles`, ./control.ts).
 */

/** Whoever created a channel nobody said anything about. */
export const SLACK_FAKE_DEFAULT_CREATOR = "U0CREATOR";

export interface RoleSpec {
  team: string;
  admins?: string[];
  owners?: string[];
  channel?: string;
  creator?: string;
}

export class SlackPeople {
  #admins = new Set<string>();
  #owners = new Set<string>();
  #creators = new Map<string, string>();

  reset(): void {
    this.#admins.clear();
    this.#owners.clear();
    this.#creators.clear();
  }

  set(spec: RoleSpec): void {
    for (const user of spec.admins ?? []) this.#admins.add(`${spec.team}|${user}`);
    for (const user of spec.owners ?? []) this.#owners.add(`${spec.team}|${user}`);
    if (spec.channel && spec.creator) this.#creators.set(`${spec.team}|${spec.channel}`, spec.creator);
  }

  isAdmin(team: string, user: string): boolean {
    return this.#admins.has(`${team}|${user}`) || this.isOwner(team, user);
  }

  isOwner(team: string, user: string): boolean {
    return this.#owners.has(`${team}|${user}`);
  }

  creator(team: string, channel: string): string {
    return this.#creators.get(`${team}|${channel}`) ?? SLACK_FAKE_DEFAULT_CREATOR;
  }
}
