/**
 * The two kinds of "no" at accept (src/intake/cli.ts): `AcceptRefused` when the accept cannot happen yet (a record it
 * names is not archived: it may still be pending; the submission stays pending), and `AcceptRejected` when it never
 * can as submitted (intake records the message as the submission's rejection, and the receipt status carries it).
 * Each message says what to change.
 */
export class AcceptRefused extends Error {}
export class AcceptRejected extends Error {}
