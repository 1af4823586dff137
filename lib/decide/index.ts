/**
 * @module
 * The response decider: whether the bot should answer an inbound message, and why.
 */
export { decideResponse } from "./decide.ts";
export { explicitTrigger } from "./explicit.ts";
export { initiativeThreshold, takeInitiative } from "./initiative.ts";
export type { DecidableMessage, DecideOptions, Decision, DecisionReason } from "./reasons.ts";
