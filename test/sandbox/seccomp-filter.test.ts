import {
  ARCH_OFFSET,
  AUDIT_ARCH_AARCH64,
  AUDIT_ARCH_X86_64,
  BPF,
  REFUSED_SYSCALLS,
  SECCOMP_DENY,
  SECCOMP_RET_ALLOW,
  seccompInstructions,
  seccompProgram,
  X32_SYSCALL_BIT,
  type BpfInstruction,
} from '../../src/sandbox/seccomp-filter.js';

/** Runs the program on one syscall the way the kernel would (only the opcodes the filter uses). */
function evaluate(program: readonly BpfInstruction[], data: { nr: number; arch: number }): number {
  let acc = 0;
  for (let pc = 0; pc < program.length; pc += 1) {
    const ins = program[pc]!;
    if (ins.code === BPF.LD_W_ABS) acc = ins.k === ARCH_OFFSET ? data.arch >>> 0 : data.nr >>> 0;
    else if (ins.code === BPF.JEQ_K) pc += acc === ins.k >>> 0 ? ins.jt : ins.jf;
    else if (ins.code === BPF.JGE_K) pc += acc >= ins.k >>> 0 ? ins.jt : ins.jf;
    else if (ins.code === BPF.RET_K) return ins.k >>> 0;
    else throw new Error(`unexpected opcode ${ins.code}`);
  }
  throw new Error('fell off the end');
}

const program = seccompInstructions();
const AUDIT_ARCH_I386 = 0x40000003;
const AUDIT_ARCH_ARM = 0x40000028;

describe('the seccomp filter', () => {
  it.each([
    ['x86_64 bpf', AUDIT_ARCH_X86_64, 321],
    ['x86_64 keyctl', AUDIT_ARCH_X86_64, 250],
    ['x86_64 io_uring_setup', AUDIT_ARCH_X86_64, 425],
    ['x86_64 mount', AUDIT_ARCH_X86_64, 165],
    ['x86_64 iopl', AUDIT_ARCH_X86_64, 172],
    ['x86_64 x32 getpid', AUDIT_ARCH_X86_64, X32_SYSCALL_BIT + 39],
    ['aarch64 bpf', AUDIT_ARCH_AARCH64, 280],
    ['aarch64 keyctl', AUDIT_ARCH_AARCH64, 219],
    ['aarch64 finit_module', AUDIT_ARCH_AARCH64, 273],
    ['i386 getpid (another ABI)', AUDIT_ARCH_I386, 20],
    ['arm32 getpid (another ABI)', AUDIT_ARCH_ARM, 20],
  ])('refuses %s with EPERM', (_name, arch, nr) => {
    expect(evaluate(program, { arch, nr })).toBe(SECCOMP_DENY);
  });

  it.each([
    ['x86_64 read', AUDIT_ARCH_X86_64, 0],
    ['x86_64 clone3', AUDIT_ARCH_X86_64, 435],
    ['x86_64 ptrace', AUDIT_ARCH_X86_64, 101],
    ['aarch64 read', AUDIT_ARCH_AARCH64, 63],
    ['aarch64 openat', AUDIT_ARCH_AARCH64, 56],
    // 321 is bpf on x86_64 only; on aarch64 it is a different syscall.
    ['aarch64 321', AUDIT_ARCH_AARCH64, 321],
  ])('allows %s', (_name, arch, nr) => {
    expect(evaluate(program, { arch, nr })).toBe(SECCOMP_RET_ALLOW);
  });

  it('lists each refused syscall once, and encodes 8 bytes per instruction for bwrap', () => {
    expect(new Set(REFUSED_SYSCALLS).size).toBe(REFUSED_SYSCALLS.length);
    const bytes = seccompProgram();
    expect(bytes.length).toBe(program.length * 8);
    expect(bytes.readUInt16LE(0)).toBe(BPF.LD_W_ABS);
    expect(bytes.readUInt32LE(4)).toBe(ARCH_OFFSET);
    expect(bytes.readUInt32LE(bytes.length - 4)).toBe(SECCOMP_DENY);
  });
});
