/** The last line of a status comment without a PR, and of every PR body: how to ask again or stop. */
export const RETRY_HINT = 'Comment `/agent retry` (optionally followed by instructions) to try again, or `/agent cancel` to stop.';
