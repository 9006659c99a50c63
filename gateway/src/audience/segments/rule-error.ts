/** A rule the segment compiler refuses, with a message for the person who built it. */
export class RuleError extends Error {}
