/**
 * The outcomes each kind's answers are counted by (`failed` aside), as its synchronous endpoint counts them:
 * all that reading a job (its status, its results, its cancel) needs of its kind. Kept apart from the kinds
 * (kinds.ts), which bring the whole citation pipeline, so that the functions that only read jobs load none of
 * it: their bundles are a quarter of the size, and a new container answers sooner.
 */
export const JOB_OUTCOMES = Object.freeze({
  resolve: ['resolved', 'unresolved'],
  check: ['verified', 'mismatch', 'retracted', 'not_found', 'ambiguous', 'unreadable'],
} as const);

export type JobKindName = keyof typeof JOB_OUTCOMES;
