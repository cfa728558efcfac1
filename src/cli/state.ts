/** What a command leaves for the program once it has run. */

/** A command module adds itself to the program and stores its exit code in `state`. */
export interface CommandState {
  exitCode: number;
}
