/**
 * Code that tries to get out of the sandbox (issue 11), through the invoke route of a real node:
 * reach a loopback listener the test opens, read the node's data folder, write outside the
 * workspace, fork without end, allocate without bound, loop forever. Each is contained: the
 * attempt fails inside, nothing outside changes, and the node answers as before.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Client, registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"

let node: TestNode
let owner: Registered
let listener: Server
let port = 0
let connections = 0

beforeAll(async () => {
  node = await startNode()
  owner = await registerOwner(node)
  listener = createServer((socket) => {
    connections++
    socket.end("secret from the host\n")
  })
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve))
  port = (listener.address() as { port: number }).port
})
afterAll(async () => {
  await new Promise((resolve) => listener.close(resolve))
  await node.close()
})

interface Report {
  stdout: string
  stderr: string
  exitCode: number
  timedOut: boolean
  sandboxed: boolean
  runtime: string
}

const execute = async (language: string, code: string, timeoutMs?: number): Promise<Report> => {
  const answer = await run(
    owner.client.api.studioSkills.invokeSkill({
      payload: { name: "code.execute", input: { language, code, ...(timeoutMs === undefined ? {} : { timeoutMs }) } }
    })
  )
  expect(answer, JSON.stringify(answer)).toMatchObject({ ok: true })
  return answer.output as Report
}

/** The node still answers, and still runs code. */
const unharmed = async () => {
  expect(await run(new Client(node.url).api.health.health())).toMatchObject({ ok: true })
  expect((await execute("sh", "echo alive")).stdout).toBe("alive\n")
}

/** Processes on this machine whose command line holds `marker`, the test's own excepted. */
const processesWith = (marker: string) =>
  readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker)
      } catch {
        return false
      }
    })

describe("python and sh run in nova", () => {
  it("report nova as the runtime, sandboxed, with the workspace as the working folder", async () => {
    const answer = await execute("sh", "pwd; echo made > made.txt; cat made.txt; id -u")
    expect(answer).toMatchObject({ stdout: "/workspace\nmade\n1000\n", exitCode: 0, sandboxed: true, runtime: "nova" })
    const python = await execute("python", "import sys; print(sys.version_info[0]); sys.exit(3)")
    expect(python).toMatchObject({ stdout: "3\n", exitCode: 3, runtime: "nova" })
  })

  it("cannot reach a loopback listener of the host", async () => {
    const python = await execute(
      "python",
      `import socket\ns = socket.create_connection(("127.0.0.1", ${port}), timeout=2)\nprint(s.recv(100))`
    )
    expect(python.exitCode).not.toBe(0)
    expect(python.stdout).not.toContain("secret")
    const sh = await execute(
      "sh",
      `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3; python3 -c 'import urllib.request; urllib.request.urlopen("http://127.0.0.1:${port}/")'`
    )
    expect(sh.stdout).not.toContain("secret")
    expect(connections).toBe(0)
  })

  it("cannot read the node's data folder, nor anything outside what the interpreter needs", async () => {
    const answer = await execute(
      "sh",
      `cat ${join(node.dataDir, "node.db")}; ls ${node.dataDir}; cat /etc/shadow; ls /root /home /tmp`
    )
    expect(answer.stdout).toBe("")
    expect(answer.stderr).toMatch(/No such file/)
    const python = await execute(
      "python",
      `print(open(${JSON.stringify(join(node.dataDir, "node.db"))}, "rb").read(16))`
    )
    expect(python.stdout).toBe("")
    expect(python.stderr).toMatch(/FileNotFoundError|PermissionError/)
  })

  it("cannot write outside the workspace", async () => {
    const target = join(tmpdir(), `escape-${process.pid}.txt`)
    const answer = await execute(
      "sh",
      `echo x > ${target}; echo x > /usr/escape.txt; echo x > /escape.txt; echo x > /proc/escape; echo x > /dev/shm/escape; mkdir /workspace/../up`
    )
    expect(answer.exitCode).not.toBe(0)
    expect(existsSync(target)).toBe(false)
    expect(existsSync("/usr/escape.txt")).toBe(false)
    expect(existsSync("/escape.txt")).toBe(false)
    // Files the node writes are not reachable by name either: the sandbox has its own root.
    writeFileSync(join(node.dataDir, "canary.txt"), "canary")
    const canary = await execute(
      "python",
      `open(${JSON.stringify(join(node.dataDir, "canary.txt"))}, "w").write("overwritten")`
    )
    expect(canary.exitCode).not.toBe(0)
    expect(readFileSync(join(node.dataDir, "canary.txt"), "utf8")).toBe("canary")
  })

  it("cannot create files even in the sandbox's own /dev tmpfs: Landlock allows writes under the workspace only", async () => {
    const answer = await execute("sh", "echo x > /dev/made && echo created")
    expect(answer.stdout).toBe("")
    expect(answer.stderr).toContain("Permission denied")
  })

  it("holds a fork bomb to its process limit and kills every process it made at the deadline", async () => {
    const marker = `bomb${process.pid}`
    // The shell's own wait is forked before the bomb and awaited by a builtin: a `sleep` forked after it lost the race
    // for the last process slots on a loaded machine ("can't fork", exit 2 before the deadline).
    const answer = await execute(
      "sh",
      `sleep 60 & held=$!; ${marker}() { ${marker} | ${marker} & }; ${marker}; wait $held`,
      3_000
    )
    expect(answer).toMatchObject({ timedOut: true, exitCode: 124, sandboxed: true })
    expect(processesWith(`${marker}()`)).toEqual([])
    await unharmed()
  })

  it("stops a process that allocates without bound, the node's memory untouched", async () => {
    const rssBefore = process.memoryUsage().rss
    const answer = await execute("python", "chunks = []\nwhile True: chunks.append(b'x' * 10_000_000)", 20_000)
    expect(answer.timedOut).toBe(false)
    expect([1, 137]).toContain(answer.exitCode)
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 1024 * 1024)
    await unharmed()
  })

  it("stops a loop that never ends at its time limit, whole", async () => {
    const marker = `spin${process.pid}`
    const started = Date.now()
    const answer = await execute("sh", `${marker}() { while :; do :; done; }; ${marker} & ${marker}`, 1_000)
    expect(answer).toMatchObject({ timedOut: true, exitCode: 124 })
    expect(answer.stderr).toContain("1000 ms")
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(processesWith(`${marker}()`)).toEqual([])
    const python = await execute("python", "while True: pass", 500)
    expect(python).toMatchObject({ timedOut: true, exitCode: 124 })
  })

  it("cannot make namespaces, trace, or mount inside (seccomp and no capabilities)", async () => {
    const answer = await execute(
      "python",
      [
        "import ctypes, os",
        "libc = ctypes.CDLL(None, use_errno=True)",
        "print('unshare', libc.unshare(0x10000000), ctypes.get_errno())",
        "print('ptrace', libc.ptrace(16, 1, 0, 0), ctypes.get_errno())",
        "print('mount', libc.mount(b'none', b'/workspace', b'tmpfs', 0, None), ctypes.get_errno())"
      ].join("\n")
    )
    expect(answer.stdout).toBe("unshare -1 1\nptrace -1 1\nmount -1 1\n")
  })
})

describe("GET /api/health", () => {
  it("says nova runs python and sh here, and which protections are active", async () => {
    const health = await run(new Client(node.url).api.health.health())
    expect(health.sandbox).toMatchObject({
      available: true,
      runtime: "nova",
      reason: null,
      setting: "auto",
      allowLocal: false,
      checks: { namespaces: true, seccomp: true, landlockAbi: expect.any(Number), docker: false }
    })
    expect(health.sandbox.protections).toEqual(
      expect.arrayContaining(["seccomp filter", "rlimits on memory, CPU time, file size and processes"])
    )
  })
})
