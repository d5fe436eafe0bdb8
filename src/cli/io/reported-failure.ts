/**
 * A command failure the command has already reported (one line per failed input of `read`):
 * the CLI exits with the code of the first failure and prints nothing more, so no error shows twice.
 */
export class ReportedFailure extends Error {
  readonly failure: unknown;

  constructor(failure: unknown) {
    super(failure instanceof Error ? failure.message : String(failure), { cause: failure });
    this.name = 'ReportedFailure';
    this.failure = failure;
  }
}
