/** What `validate --changed` cannot do (no git, no repository, an unknown base): a usage error, exit 2. */
export class GitChangesError extends Error {}
