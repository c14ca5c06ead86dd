/*
 * inotify-feed: the change feed of one worktree for the tree hash (src/workspace/inotify-feed.ts).
 * Node's fs.watch cannot be used: libuv subscribes to no IN_CLOSE_WRITE (a write through a shared
 * mmap raises no other event) and drops IN_Q_OVERFLOW without a word. This reads inotify itself
 * and passes every event on, overflow included; the caller decides.
 *
 * argv[1]: the worktree root. Commands on stdin, each ended by NUL:
 *   x<path>   never walk into <path> (relative to the root): an ignored directory
 *   c         forget every x
 *   r<path>   watch the directory <path> ("." for the root) and everything below it: each directory
 *             watched before it is read, each regular file watched itself (its inode: a write
 *             through a hard link elsewhere is seen). Nothing followed through a symlink.
 *   f<path>   watch one regular file
 *   s         read every event queued so far, then answer S
 * Answers on stdout, each ended by NUL:
 *   D<wd> <path> / F<wd> <path>   a directory / file watched
 *   X<errno> <path>               could not be watched (ENOENT: gone meanwhile)
 *   R                             the walk (or f) is done
 *   E<wd> <mask> <name>           an event (wd -1 with IN_Q_OVERFLOW: events were lost)
 *   S                             every event queued before the s was read has been written
 * Exits when stdin closes (its parent is gone) or on any error it cannot report.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define DIR_MASK (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
#define FILE_MASK (IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF)

static int ino;
static int root;
static char **excluded;
static size_t excluded_n;

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  putchar('\0');
}

static void drain(void) {
  char buf[65536] __attribute__((aligned(__alignof__(struct inotify_event))));
  for (;;) {
    ssize_t n = read(ino, buf, sizeof buf);
    if (n < 0 && errno == EAGAIN) return;
    if (n <= 0) exit(3);
    for (char *p = buf; p < buf + n;) {
      struct inotify_event *e = (struct inotify_event *)p;
      out("E%d %u %s", e->wd, e->mask, e->len > 0 ? e->name : "");
      p += sizeof *e + e->len;
    }
  }
}

/** Opens <path> below the root, refusing any symlink on the way (and at the end). */
static int open_beneath(const char *path, int flags) {
  struct open_how how = { .flags = (unsigned long long)flags | O_NOFOLLOW | O_CLOEXEC, .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS };
  return (int)syscall(SYS_openat2, root, path, &how, sizeof how);
}

/** Watches the inode behind an open fd (through /proc: inotify has no *at form). */
static int watch_fd(int fd, unsigned mask) {
  char proc[64];
  snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
  return inotify_add_watch(ino, proc, mask);
}

static int is_excluded(const char *path) {
  for (size_t i = 0; i < excluded_n; i++)
    if (strcmp(excluded[i], path) == 0) return 1;
  return 0;
}

static void watch_file(const char *path) {
  int fd = open_beneath(path, O_PATH);
  struct stat st;
  if (fd < 0) { out("X%d %s", errno, path); return; }
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    int wd = watch_fd(fd, FILE_MASK);
    if (wd < 0) out("X%d %s", errno, path); else out("F%d %s", wd, path);
  }
  close(fd);
}

static void walk(const char *path) {
  int fd = open_beneath(path, O_RDONLY | O_DIRECTORY);
  if (fd < 0) { out("X%d %s", errno, path); return; }
  int wd = watch_fd(fd, DIR_MASK);
  if (wd < 0) { out("X%d %s", errno, path); close(fd); return; }
  out("D%d %s", wd, path);
  DIR *dir = fdopendir(fd);
  if (dir == NULL) { out("X%d %s", errno, path); close(fd); return; }
  struct dirent *d;
  while ((d = readdir(dir)) != NULL) {
    if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0 || strcmp(d->d_name, ".git") == 0) continue;
    char *child;
    if (strcmp(path, ".") == 0) child = strdup(d->d_name);
    else if (asprintf(&child, "%s/%s", path, d->d_name) < 0) child = NULL;
    if (child == NULL) exit(4);
    unsigned char type = d->d_type;
    if (type == DT_UNKNOWN) {
      struct stat st;
      if (fstatat(dirfd(dir), d->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0) type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_LNK;
    }
    if (type == DT_DIR && !is_excluded(child)) walk(child);
    else if (type == DT_REG) watch_file(child);
    free(child);
  }
  closedir(dir);
}

static void command(char *cmd) {
  switch (cmd[0]) {
  case 'x':
    excluded = realloc(excluded, (excluded_n + 1) * sizeof *excluded);
    if (excluded == NULL || (excluded[excluded_n++] = strdup(cmd + 1)) == NULL) exit(4);
    break;
  case 'c':
    for (size_t i = 0; i < excluded_n; i++) free(excluded[i]);
    excluded_n = 0;
    break;
  case 'r': walk(cmd + 1); out("R"); break;
  case 'f': watch_file(cmd + 1); out("R"); break;
  case 's': drain(); out("S"); break;
  default: exit(5);
  }
  fflush(stdout);
}

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() == 1) return 0;
  root = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (root < 0 || ino < 0) { fprintf(stderr, "inotify-feed: %s\n", strerror(errno)); return 1; }
  static char in[1 << 16];
  size_t have = 0;
  struct pollfd fds[2] = { { .fd = 0, .events = POLLIN }, { .fd = ino, .events = POLLIN } };
  for (;;) {
    if (poll(fds, 2, -1) < 0) { if (errno == EINTR) continue; return 3; }
    if (fds[1].revents & POLLIN) { drain(); fflush(stdout); }
    if (fds[0].revents & (POLLIN | POLLHUP)) {
      ssize_t n = read(0, in + have, sizeof in - have);
      if (n <= 0) return 0;
      have += (size_t)n;
      char *start = in, *end;
      while ((end = memchr(start, '\0', have - (size_t)(start - in))) != NULL) {
        command(start);
        start = end + 1;
      }
      have -= (size_t)(start - in);
      memmove(in, start, have);
      if (have == sizeof in) return 6; /* a command longer than the buffer */
    }
  }
}
