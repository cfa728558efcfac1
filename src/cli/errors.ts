/** Errors a command raises to end with exit code 2 and a message (usage or setup problems). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Exit codes of every guard command. README "Exit codes" documents them. */
export const EXIT = { OK: 0, FINDINGS: 1, FAILURE: 2 } as const;
