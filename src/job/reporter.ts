import { renderStatusComment } from '../github/render-status-comment.js';
import { statusMarker } from '../github/status-marker.js';
import type { JobOutcomeReport, JobReport, PhaseName, PhaseState } from '../github/report.js';
import type { GitHost } from '../github/types.js';
import type { CostText } from '../util/cost-sentence.js';
import type { Tokens } from '../agent/types.js';
import type { FixEvent, FixPhase } from '../fix/fix-event.js';

export interface ReporterDeps {
  host: GitHost;
  report: JobReport;
  now: () => number;
  /** Progress edits closer together than this are skipped (phase changes always go out). */
  minIntervalMs: number;
  onError: (error: unknown) => void;
  /** A sentence the final status adds (the issue was closed by its author meanwhile), or null. */
  finishNote?: () => Promise<string | null>;
  /** The run's cost in words (model/cost.ts); absent: the comment says nothing of cost. */
  describeCost?: (tokens: Tokens) => CostText;
}

/** The status comment's row of each phase of a fix. */
const FIX_PHASE_ROW: Record<FixPhase, PhaseName> = { setup: 'setup', baseline: 'baseline', agent: 'agent', gate: 'verification', publish: 'pull_request' };

/**
 * The job's one status comment, edited in place. Writes are serialised (two racing upserts could
 * both create the comment); phase changes go out at once, agent progress at most every
 * `minIntervalMs`. A failed progress edit is reported and skipped: the next one carries the
 * whole state. The final edit must arrive, so its failure fails the job (whose retry reports again).
 */
export class JobReporter {
  private lastWrite = Number.NEGATIVE_INFINITY;
  private chain: Promise<void> = Promise.resolve();
  private commentId: number | null = null;
  /** The run's usage so far (the last progress event's), for what a failed or cancelled job cost. */
  usage: Tokens = { prompt: 0, completion: 0 };

  constructor(private readonly deps: ReporterDeps) {}

  get report(): JobReport {
    return this.deps.report;
  }

  /** Queues a phase change; `flush()` waits for it. Safe to call from synchronous callbacks. */
  phase(name: PhaseName, state: PhaseState, detail?: string): Promise<void> {
    const phase = this.deps.report.phases.find((p) => p.name === name);
    if (phase) {
      phase.state = state;
      if (detail === undefined) delete phase.detail;
      else phase.detail = detail;
    }
    return this.enqueue(false);
  }

  /**
   * A fix's event (fix/fix-event.ts) as the status comment shows it: phases as rows, the agent's
   * model replies as progress (steps, tokens, cost). Safe to call from synchronous listeners.
   */
  apply(event: FixEvent): void {
    if (event.type === 'agent') {
      if (event.event.type !== 'model') return;
      const { step, tokens } = event.event;
      this.usage = tokens;
      void this.progress(step, tokens.prompt + tokens.completion, this.deps.describeCost?.(tokens));
      return;
    }
    // A running gate or publish has nothing to say yet (its tree is said when it is done).
    const quiet = event.state === 'running' && (event.phase === 'gate' || event.phase === 'publish');
    const cached = event.phase === 'baseline' && event.state === 'done' && event.cached;
    void this.phase(FIX_PHASE_ROW[event.phase], event.state, quiet ? undefined : cached ? `${event.detail} (cached)` : event.detail);
  }

  /** The final usage (a resumed run may have made no call in this process): tokens and cost. */
  settle(tokens: Tokens): void {
    this.usage = tokens;
    this.deps.report.tokens = tokens.prompt + tokens.completion;
    const cost = this.deps.describeCost?.(tokens);
    if (cost !== undefined) this.deps.report.cost = cost;
  }

  progress(steps: number, tokens: number, cost?: CostText): Promise<void> {
    this.deps.report.steps = steps;
    this.deps.report.tokens = tokens;
    if (cost !== undefined) this.deps.report.cost = cost;
    if (this.deps.now() - this.lastWrite < this.deps.minIntervalMs) return this.chain;
    this.lastWrite = this.deps.now();
    return this.enqueue(false);
  }

  async finish(outcome: JobOutcomeReport): Promise<void> {
    const note = outcome.status === 'cancelled' ? null : await this.note();
    this.deps.report.outcome = note ? { ...outcome, sentence: `${outcome.sentence} ${note}` } : outcome;
    for (const phase of this.deps.report.phases) {
      if (phase.state === 'running') phase.state = outcome.status === 'published' ? 'done' : 'failed';
    }
    await this.enqueue(true);
  }

  /** The finish note; a failure to learn it is reported and leaves it out (never fails the job). */
  private async note(): Promise<string | null> {
    try {
      return (await this.deps.finishNote?.()) ?? null;
    } catch (error) {
      this.deps.onError(error);
      return null;
    }
  }

  flush(): Promise<void> {
    return this.chain;
  }

  private enqueue(strict: boolean): Promise<void> {
    const write = this.chain.then(() => this.upsert());
    this.chain = write.catch((error: unknown) => {
      if (!strict) this.deps.onError(error);
    });
    return strict ? write : this.chain;
  }

  private async upsert(): Promise<void> {
    this.lastWrite = this.deps.now();
    const marker = statusMarker(this.deps.report.jobId);
    const body = `${marker}\n${renderStatusComment(this.deps.report)}`;
    // The first write finds (or creates) the comment by its marker; later ones edit it by id.
    const edited = this.commentId !== null && (await this.deps.host.updateComment(this.commentId, body));
    if (!edited) this.commentId = await this.deps.host.upsertComment(this.deps.report.number, marker, body);
  }
}
