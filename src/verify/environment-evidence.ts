/**
 * The environment image a verdict ran in, as the evidence names it (PR body, check run, status
 * comment, the CLI's JSON): the reference as written and the digest pulled. Absent: the host's userland.
 */
export interface EnvironmentEvidence {
  image: string;
  digest: string;
}
