import { commitVerifiedTree, updateBranch } from '../workspace/commit-tree.js';
import { parentOfBase } from '../workspace/empty-base.js';
import { commitMessage, type Publisher } from './publisher.js';

/** Local mode: one commit of the verified tree on `branch` in `repo` (a root commit on the empty base). */
export function localPublisher(repo: string, branch: string): Publisher {
  return {
    async publish(input) {
      const commit = await commitVerifiedTree({
        repo,
        tree: input.verified.tree,
        parent: parentOfBase(input.baseCommit),
        message: commitMessage(input),
        date: input.date,
      });
      await updateBranch(repo, branch, commit);
      return { branch, commit, tree: input.verified.tree };
    },
  };
}
