/**
 * nova's seccomp filter: a classic BPF program, built here and handed to bubblewrap
 * (`--seccomp <fd>`), which loads it just before the code starts. It allows every system call but
 * those that reach past the sandbox (tracing other processes, mounting, loading kernel code or
 * BPF, keyrings, perf, new namespaces, io_uring, setting the clock); those fail with EPERM, so a
 * program that tries one sees an ordinary refusal. x86-64 only: elsewhere the probe reports the
 * filter absent rather than load numbers meant for another architecture.
 */

const AUDIT_ARCH_X86_64 = 0xc000003e
const X32_SYSCALL_BIT = 0x40000000

const EPERM = 1
const ENOSYS = 38
const RET_ALLOW = 0x7fff0000
const RET_KILL_PROCESS = 0x80000000
const retErrno = (errno: number) => 0x00050000 | errno

// BPF opcodes (linux/filter.h).
const LD_W_ABS = 0x20
const JEQ_K = 0x15
const JGE_K = 0x35
const JSET_K = 0x45
const RET_K = 0x06

// Offsets into struct seccomp_data.
const NR = 0
const ARCH = 4
const ARG0_LOW = 16

/** Refused outright, by x86-64 number. */
export const deniedSyscalls: Readonly<Record<string, number>> = {
  uselib: 134,
  adjtimex: 159,
  vhangup: 153,
  pivot_root: 155,
  chroot: 161,
  acct: 163,
  settimeofday: 164,
  mount: 165,
  umount2: 166,
  swapon: 167,
  swapoff: 168,
  reboot: 169,
  sethostname: 170,
  setdomainname: 171,
  iopl: 172,
  ioperm: 173,
  create_module: 174,
  init_module: 175,
  delete_module: 176,
  get_kernel_syms: 177,
  query_module: 178,
  quotactl: 179,
  nfsservctl: 180,
  ptrace: 101,
  syslog: 103,
  lookup_dcookie: 212,
  clock_settime: 227,
  kexec_load: 246,
  add_key: 248,
  request_key: 249,
  keyctl: 250,
  unshare: 272,
  perf_event_open: 298,
  fanotify_init: 300,
  name_to_handle_at: 303,
  open_by_handle_at: 304,
  clock_adjtime: 305,
  setns: 308,
  process_vm_readv: 310,
  process_vm_writev: 311,
  finit_module: 313,
  kexec_file_load: 320,
  bpf: 321,
  userfaultfd: 323,
  io_uring_setup: 425,
  io_uring_enter: 426,
  io_uring_register: 427,
  open_tree: 428,
  move_mount: 429,
  fsopen: 430,
  fsconfig: 431,
  fsmount: 432,
  fspick: 433,
  mount_setattr: 442
}

const CLONE = 56
const CLONE3 = 435
/**
 * CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWTIME.
 */
const NAMESPACE_FLAGS =
  0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x00000080

export const seccompSupported = process.arch === "x64"

type Instruction = readonly [code: number, jt: number, jf: number, k: number]

const program = (): ReadonlyArray<Instruction> => [
  [LD_W_ABS, 0, 0, ARCH],
  [JEQ_K, 1, 0, AUDIT_ARCH_X86_64],
  [RET_K, 0, 0, RET_KILL_PROCESS],
  [LD_W_ABS, 0, 0, NR],
  // The x32 ABI numbers the same calls differently: none of it is allowed.
  [JGE_K, 0, 1, X32_SYSCALL_BIT],
  [RET_K, 0, 0, retErrno(EPERM)],
  ...Object.values(deniedSyscalls).flatMap(
    (nr): ReadonlyArray<Instruction> => [
      [JEQ_K, 0, 1, nr],
      [RET_K, 0, 0, retErrno(EPERM)]
    ]
  ),
  // clone3 passes its flags in memory a filter cannot read: ENOSYS makes the C library fall back to clone.
  [JEQ_K, 0, 1, CLONE3],
  [RET_K, 0, 0, retErrno(ENOSYS)],
  // clone may start threads and processes, not namespaces.
  [JEQ_K, 0, 4, CLONE],
  [LD_W_ABS, 0, 0, ARG0_LOW],
  [JSET_K, 0, 1, NAMESPACE_FLAGS],
  [RET_K, 0, 0, retErrno(EPERM)],
  [RET_K, 0, 0, RET_ALLOW],
  [RET_K, 0, 0, RET_ALLOW]
]

/** The program as the kernel reads it: struct sock_filter { u16 code; u8 jt; u8 jf; u32 k }, little-endian. */
export const seccompProgram = (): Buffer => {
  const instructions = program()
  const bytes = Buffer.alloc(instructions.length * 8)
  instructions.forEach(([code, jt, jf, k], index) => {
    bytes.writeUInt16LE(code, index * 8)
    bytes.writeUInt8(jt, index * 8 + 2)
    bytes.writeUInt8(jf, index * 8 + 3)
    bytes.writeUInt32LE(k >>> 0, index * 8 + 4)
  })
  return bytes
}
