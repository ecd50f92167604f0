# nova's launcher: the first program inside the bubblewrap sandbox. It sets the resource limits
# and a Landlock ruleset (writes only in the workspace, reads only of what the interpreter needs,
# no TCP, signals and abstract sockets kept inside) and then becomes the interpreter, so the
# code inherits both and cannot lift them. Arguments: a JSON config, then the command to exec.
import ctypes, json, os, resource, struct, sys

config = json.loads(sys.argv[1])
command = sys.argv[2:]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long

CREATE_RULESET, ADD_RULE, RESTRICT_SELF = 444, 445, 446
abi = libc.syscall(CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
abi = abi if abi > 0 else 0
if config.get("probe"):
    print(json.dumps({"landlockAbi": abi}))
    sys.exit(0)

for name, value in config["rlimits"].items():
    resource.setrlimit(getattr(resource, name), (value, value))

EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1, 2, 4, 8
REMOVE_DIR, REMOVE_FILE, MAKE_CHAR, MAKE_DIR, MAKE_REG, MAKE_SOCK, MAKE_FIFO, MAKE_BLOCK, MAKE_SYM = (1 << n for n in range(4, 13))
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15

if abi >= 1 and config.get("landlock"):
    handled = (1 << 13) - 1
    if abi >= 2: handled |= REFER
    if abi >= 3: handled |= TRUNCATE
    if abi >= 5: handled |= IOCTL_DEV
    net = 3 if abi >= 4 else 0  # bind and connect over TCP: handled, never granted
    scoped = 3 if abi >= 6 else 0  # abstract unix sockets and signals stay inside the domain
    size = 24 if abi >= 6 else 16 if abi >= 4 else 8
    attr = ctypes.create_string_buffer(struct.pack("<QQQ", handled, net, scoped)[:size], size)
    ruleset = libc.syscall(CREATE_RULESET, attr, ctypes.c_size_t(size), ctypes.c_uint32(0))
    if ruleset < 0:
        sys.exit("nova: landlock ruleset refused: errno %d" % ctypes.get_errno())
    everything = handled
    rights = {
        "read": EXECUTE | READ_FILE | READ_DIR,
        "list": READ_DIR,
        "device": READ_FILE | WRITE_FILE | READ_DIR | TRUNCATE | IOCTL_DEV,
        "write": everything,
    }
    for path, kind in config["landlock"]:
        if not os.path.exists(path):
            continue
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        rule = ctypes.create_string_buffer(struct.pack("<Qi", rights[kind] & handled, fd), 12)
        if libc.syscall(ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(1), rule, ctypes.c_uint32(0)) < 0:
            sys.exit("nova: landlock rule for %s refused: errno %d" % (path, ctypes.get_errno()))
        os.close(fd)
    libc.prctl(38, 1, 0, 0, 0)  # no_new_privs, which restricting needs (bubblewrap's seccomp set it already)
    if libc.syscall(RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0)) < 0:
        sys.exit("nova: landlock restrict refused: errno %d" % ctypes.get_errno())
    os.close(ruleset)

os.execv(command[0], command)
