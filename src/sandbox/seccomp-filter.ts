/**
 * The seccomp program every sandboxed command runs under (bwrap `--seccomp FD`): classic BPF,
 * assembled here so no native dependency is needed. It checks `seccomp_data.arch` first — a
 * syscall made through another ABI (i386 `int 0x80` on x86_64, arm32 on aarch64) has other numbers
 * and would slip past a list written for the native one — and refuses the x32 ABI bit on x86_64.
 * Listed syscalls fail with EPERM (programs see an ordinary "not permitted"); all others run.
 * Why each one is listed: docs/sandbox.md, "Resources per job".
 */

/** Refused on every architecture; numbers per architecture below. */
export const REFUSED_SYSCALLS = [
  // Kernel attack surface unprivileged code has no business with.
  'bpf', 'perf_event_open', 'userfaultfd', 'io_uring_setup', 'io_uring_enter', 'io_uring_register',
  // The kernel keyring is not namespaced: keys would be shared across jobs.
  'keyctl', 'add_key', 'request_key',
  // The machine itself: kernels, modules, swap, reboot, accounting, the kernel log.
  'kexec_load', 'kexec_file_load', 'init_module', 'finit_module', 'delete_module', 'swapon', 'swapoff', 'reboot', 'acct', 'syslog',
  // Mounts (old and new API): the sandbox's view of the filesystem is the host's decision.
  'mount', 'umount2', 'pivot_root', 'open_tree', 'move_mount', 'fsopen', 'fsconfig', 'fsmount', 'fspick', 'mount_setattr',
  // Opens a file by handle, bypassing path permissions (the "shocker" container escape).
  'open_by_handle_at',
] as const;

export type RefusedSyscall = (typeof REFUSED_SYSCALLS)[number];

/** x86_64 numbers (asm/unistd_64.h); iopl/ioperm exist only there. */
const X86_64: Record<RefusedSyscall | 'iopl' | 'ioperm', number> = {
  bpf: 321, perf_event_open: 298, userfaultfd: 323, io_uring_setup: 425, io_uring_enter: 426, io_uring_register: 427,
  keyctl: 250, add_key: 248, request_key: 249,
  kexec_load: 246, kexec_file_load: 320, init_module: 175, finit_module: 313, delete_module: 176, swapon: 167, swapoff: 168,
  reboot: 169, acct: 163, syslog: 103,
  mount: 165, umount2: 166, pivot_root: 155, open_tree: 428, move_mount: 429, fsopen: 430, fsconfig: 431, fsmount: 432, fspick: 433,
  mount_setattr: 442, open_by_handle_at: 304,
  iopl: 172, ioperm: 173,
};

/** aarch64 numbers (asm-generic/unistd.h). */
const AARCH64: Record<RefusedSyscall, number> = {
  bpf: 280, perf_event_open: 241, userfaultfd: 282, io_uring_setup: 425, io_uring_enter: 426, io_uring_register: 427,
  keyctl: 219, add_key: 217, request_key: 218,
  kexec_load: 104, kexec_file_load: 294, init_module: 105, finit_module: 273, delete_module: 106, swapon: 224, swapoff: 225,
  reboot: 142, acct: 89, syslog: 116,
  mount: 40, umount2: 39, pivot_root: 41, open_tree: 428, move_mount: 429, fsopen: 430, fsconfig: 431, fsmount: 432, fspick: 433,
  mount_setattr: 442, open_by_handle_at: 265,
};

export const AUDIT_ARCH_X86_64 = 0xc000003e;
export const AUDIT_ARCH_AARCH64 = 0xc00000b7;
export const X32_SYSCALL_BIT = 0x40000000;
const EPERM = 1;
export const SECCOMP_RET_ALLOW = 0x7fff0000;
export const SECCOMP_RET_ERRNO = 0x00050000;
const DENY = SECCOMP_RET_ERRNO | EPERM;

/** Classic BPF opcodes (the only ones this program uses). */
export const BPF = { LD_W_ABS: 0x20, JEQ_K: 0x15, JGE_K: 0x35, RET_K: 0x06 } as const;
const { LD_W_ABS, JEQ_K, JGE_K, RET_K } = BPF;
/** Offsets in struct seccomp_data. */
export const NR_OFFSET = 0;
export const ARCH_OFFSET = 4;

export interface BpfInstruction {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

/** An instruction whose jump targets are labels, resolved by `assemble`. */
type Line = { code: number; k: number; jt?: string; jf?: string } | { label: string };

/** The filter as instructions (for tests and for reading); `seccompProgram` is the binary form. */
export function seccompInstructions(): BpfInstruction[] {
  const block = (name: string, numbers: readonly number[], x32: boolean): Line[] => [
    { label: name },
    { code: LD_W_ABS, k: NR_OFFSET },
    ...(x32 ? [{ code: JGE_K, k: X32_SYSCALL_BIT, jt: 'deny' }] : []),
    ...numbers.map((k) => ({ code: JEQ_K, k, jt: 'deny' })),
    { code: RET_K, k: SECCOMP_RET_ALLOW },
  ];
  return assemble([
    { code: LD_W_ABS, k: ARCH_OFFSET },
    { code: JEQ_K, k: AUDIT_ARCH_X86_64, jt: 'x86_64' },
    { code: JEQ_K, k: AUDIT_ARCH_AARCH64, jt: 'aarch64', jf: 'deny' },
    ...block('x86_64', Object.values(X86_64), true),
    ...block('aarch64', Object.values(AARCH64), false),
    // Any other ABI (i386 or arm32 compat, x32): every syscall refused.
    { label: 'deny' },
    { code: RET_K, k: DENY },
  ]);
}

/** struct sock_filter[] in the host's byte order, as bwrap reads it from the descriptor. */
export function seccompProgram(): Buffer {
  const instructions = seccompInstructions();
  const buf = Buffer.alloc(instructions.length * 8);
  const le = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  instructions.forEach((ins, i) => {
    const at = i * 8;
    if (le) buf.writeUInt16LE(ins.code, at);
    else buf.writeUInt16BE(ins.code, at);
    buf.writeUInt8(ins.jt, at + 2);
    buf.writeUInt8(ins.jf, at + 3);
    if (le) buf.writeUInt32LE(ins.k >>> 0, at + 4);
    else buf.writeUInt32BE(ins.k >>> 0, at + 4);
  });
  return buf;
}

/** Resolves labels into the relative forward jumps classic BPF uses (0..255 instructions ahead). */
function assemble(lines: readonly Line[]): BpfInstruction[] {
  const labels = new Map<string, number>();
  let index = 0;
  for (const line of lines) {
    if ('label' in line) labels.set(line.label, index);
    else index += 1;
  }
  const out: BpfInstruction[] = [];
  const offset = (label: string | undefined, at: number) => {
    if (label === undefined) return 0;
    const target = labels.get(label);
    if (target === undefined) throw new Error(`seccomp: unknown label ${label}`);
    const jump = target - at - 1;
    if (jump < 0 || jump > 255) throw new Error(`seccomp: jump to ${label} out of range`);
    return jump;
  };
  for (const line of lines) {
    if ('label' in line) continue;
    const at = out.length;
    out.push({ code: line.code, k: line.k, jt: offset(line.jt, at), jf: offset(line.jf, at) });
  }
  return out;
}

/** What a refused syscall returns: SECCOMP_RET_ERRNO with EPERM. */
export const SECCOMP_DENY = DENY;
