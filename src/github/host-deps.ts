import type { ProbotOctokit } from 'probot';
import type { Sleep } from './create-once.js';

/** What each part of the octokit GitHost needs: the client, the repository, and the retry policy. */
export interface HostDeps {
  octokit: ProbotOctokit;
  owner: string;
  repo: string;
  /** Attempts of a create after transient failures (each preceded by a re-read). */
  createAttempts: number;
  sleep: Sleep;
}
