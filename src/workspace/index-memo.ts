import { readIndexLookup, writeIndexImage, type IndexLookup } from './index-file.js';

/**
 * The private index as this process last read or edited it. The change feed's short way edits
 * it here (blob-refresh.ts) and leaves the file as it was until something else needs the file:
 * every git run on the private index (`runIn`) and every other reader of it calls `forget()`
 * first, which writes what is unwritten and drops the copy (git may rewrite the file); `close()`
 * of the workspace writes it too. A file left unwritten (a crash) is an older private index,
 * which is all a private index ever is to the next process: its stat data is true of what it
 * names, so git's stat check re-hashes whatever changed since, and a new process's first hash
 * hashes everything (its feed has not started).
 */
export class IndexMemo {
  private index: IndexLookup | undefined;
  private unwritten = false;

  constructor(private readonly indexFile: string, private readonly oidBytes: number) {}

  /** The index as kept, else as the file holds it (then kept). */
  read(): IndexLookup | { unsupported: string } {
    if (this.index !== undefined) return this.index;
    const read = readIndexLookup(this.indexFile, this.oidBytes);
    if (!('unsupported' in read)) this.index = read;
    return read;
  }

  /** The index from now on (an edit of what `read` gave), not yet written. */
  keep(index: IndexLookup): void {
    this.index = index;
    this.unwritten = true;
  }

  /** Writes the index if it was edited since it was last written. */
  flush(): void {
    if (this.index === undefined || !this.unwritten) return;
    writeIndexImage(this.indexFile, this.index.data, this.oidBytes);
    this.unwritten = false;
  }

  /** Writes what is unwritten and drops the copy: the file is someone else's until the next `read`. */
  forget(): void {
    this.flush();
    this.index = undefined;
  }
}
