/**
 * @module
 * Who is who in the fake's workspaces, as users.info and conversations.info tell an app (./people.ts): the
 * workspace's admins and owners (`is_admin`, `is_owner`), and who created each channel (`creator`). Nobody is an
 * admin and a channel's creator is a person of its own until a test or the simulator says otherwise
 * (`POST /__roles`, ./control.ts). Which people are members of which channels (users.conversations,
 * ./conversations.ts): nobody is a member of any channel until a test says so (`POST /__members`).
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
  /** `team|channel` → its members, in the order they joined. */
  #members = new Map<string, Set<string>>();

  reset(): void {
    this.#admins.clear();
    this.#owners.clear();
    this.#creators.clear();
    this.#members.clear();
  }

  /** People join or leave a channel. */
  setMembers(team: string, channel: string, join: readonly string[], leave: readonly string[]): void {
    const members = this.#members.get(`${team}|${channel}`) ?? new Set<string>();
    for (const user of join) members.add(user);
    for (const user of leave) members.delete(user);
    this.#members.set(`${team}|${channel}`, members);
  }

  /** The channels of `team` that `user` is a member of, in the order they were first described. */
  channelsOf(team: string, user: string): string[] {
    return [...this.#members].flatMap(([key, members]) =>
      key.startsWith(`${team}|`) && members.has(user) ? [key.slice(team.length + 1)] : [],
    );
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
