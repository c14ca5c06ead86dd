import type { FeedReport } from './change-feed.js';

/** One inotify event as native/inotify-feed.c passes it on. */
export interface InotifyEvent {
  wd: number;
  mask: number;
  /** The child's name for a directory's watch; '' for an event on the watched inode itself. */
  name: string;
}

/** Which inode each watch descriptor stands for: a directory (one path) or a file (every path it was watched under). */
export interface WatchMaps {
  dirs: Map<number, string>;
  files: Map<number, Set<string>>;
}

// <sys/inotify.h>
export const IN_MODIFY = 0x2;
export const IN_ATTRIB = 0x4;
export const IN_CLOSE_WRITE = 0x8;
export const IN_MOVED_FROM = 0x40;
export const IN_MOVED_TO = 0x80;
export const IN_CREATE = 0x100;
export const IN_DELETE = 0x200;
export const IN_DELETE_SELF = 0x400;
const IN_MOVE_SELF = 0x800;
const IN_UNMOUNT = 0x2000;
const IN_Q_OVERFLOW = 0x4000;
const IN_IGNORED = 0x8000;
export const IN_ISDIR = 0x40000000;
const CONTENT = IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE;
/** What a directory's event says of a name: it stands for another file now, or for none. */
const LINKS = IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO;

/** Names whose change changes what git ignores or how it reads a file: the feed cannot follow that. */
const RULE_FILES = new Set(['.gitignore', '.gitattributes']);

/** Whether `path` (a name, or a path relative to the worktree) is a `.gitignore` or `.gitattributes`. */
export function isRuleFile(path: string): boolean {
  return RULE_FILES.has(path.slice(path.lastIndexOf('/') + 1));
}

/**
 * Turns the events of one interval into the paths to look at again, or the reason the interval
 * cannot be trusted. Updates `maps` for watches the kernel dropped (IN_IGNORED). A directory
 * renamed (inside the worktree or out of it) is a reason: its watch keeps its old path. Events
 * for the worktree's own `.git` are not changes; a `.git` anywhere else is a repository inside
 * the worktree (git hashes it as a submodule, whose HEAD no watch sees).
 */
export function interpretEvents(events: readonly InotifyEvent[], maps: WatchMaps): FeedReport {
  const seen: Seen = { paths: new Set(), dirs: new Set(), named: new Set() };
  for (const event of events) {
    if (event.wd === -1 || event.mask & IN_Q_OVERFLOW) return untrusted('the kernel queue overflowed: events were lost');
    if (event.mask & IN_UNMOUNT) return untrusted('a file system was unmounted');
    const dir = maps.dirs.get(event.wd);
    if (dir !== undefined) {
      const reason = dirEvent(dir, event, seen);
      if (reason !== undefined) return untrusted(reason);
      if (event.mask & IN_IGNORED) maps.dirs.delete(event.wd);
      continue;
    }
    const files = maps.files.get(event.wd);
    if (files === undefined) return untrusted(`an event for an unknown watch (${event.wd})`);
    for (const path of files) {
      // The file moved or went: what its names stand for now is not this watch's to say.
      if (event.mask & (IN_DELETE_SELF | IN_MOVE_SELF)) relinked(seen, path);
      else if (event.mask & CONTENT) seen.paths.add(path);
    }
    if (event.mask & IN_IGNORED) maps.files.delete(event.wd);
  }
  return { trusted: true, ...seen };
}

interface Seen {
  paths: Set<string>;
  dirs: Set<string>;
  named: Set<string>;
}

/** A path whose name may stand for another file now (created, removed, renamed). */
function relinked(seen: Seen, path: string): void {
  seen.paths.add(path);
  seen.named.add(path);
}

/**
 * One event of a watched directory. A child's content or attributes changing (the directory
 * names it in the event) leave the name where it was: only `paths` gets it.
 */
function dirEvent(dir: string, event: InotifyEvent, seen: Seen): string | undefined {
  if (event.name === '') {
    // A directory's mode decides what git can read below it; its times are what a liar puts back.
    if (event.mask & IN_ATTRIB) return `the attributes of the directory ${dir} changed`;
    if (event.mask & IN_MOVE_SELF) return `the directory ${dir} was moved`;
    if (event.mask & IN_DELETE_SELF) {
      if (dir === '.') return 'the worktree was removed';
      relinked(seen, dir);
    }
    return undefined;
  }
  if (dir === '.' && event.name === '.git') return undefined;
  if (event.name === '.git') return `a repository inside the worktree (${dir})`;
  if (isRuleFile(event.name)) return `${event.name} changed in ${dir}`;
  const path = dir === '.' ? event.name : `${dir}/${event.name}`;
  if (!(event.mask & IN_ISDIR)) {
    if (event.mask & LINKS) relinked(seen, path);
    else seen.paths.add(path);
    return undefined;
  }
  if (event.mask & IN_MOVED_FROM) return `the directory ${path} was renamed`;
  if (event.mask & IN_ATTRIB) return `the attributes of the directory ${path} changed`;
  if (event.mask & (IN_CREATE | IN_MOVED_TO)) seen.dirs.add(path);
  if (event.mask & IN_DELETE) relinked(seen, path);
  return undefined;
}

function untrusted(reason: string): FeedReport {
  return { trusted: false, reason, off: false };
}
