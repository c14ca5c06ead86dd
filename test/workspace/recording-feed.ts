import type { ChangeFeed, FeedReport } from '../../src/workspace/change-feed.js';

/** What the workspace's feed reported to each hash (the reason when it could not vouch), and which files it was asked to watch. */
export class RecordingFeed implements ChangeFeed {
  readonly reports: FeedReport[] = [];
  readonly watchedFiles: string[][] = [];
  constructor(private readonly inner: ChangeFeed) {}
  async changes(): Promise<FeedReport> {
    const report = await this.inner.changes();
    this.reports.push(report);
    return report;
  }
  restart = (ignored: readonly string[]) => this.inner.restart(ignored);
  watchDirs = (dirs: readonly string[], ignored: readonly string[]) => this.inner.watchDirs(dirs, ignored);
  watchFiles = (paths: readonly string[]) => {
    this.watchedFiles.push([...paths]);
    return this.inner.watchFiles(paths);
  };
  distrust = (reason: string) => this.inner.distrust(reason);
  close = () => this.inner.close();
  get last(): FeedReport | undefined {
    return this.reports.at(-1);
  }
}
