/**
 * The docker tier's exact command (no engine here to run it), the tier choice that fails closed,
 * and the seccomp program's shape.
 */
import { describe, expect, it } from "vitest"
import { dockerArgv } from "../../../extensions/sandbox/docker.ts"
import type { SandboxProbe } from "../../../extensions/sandbox/probe.ts"
import { deniedSyscalls, seccompProgram } from "../../../extensions/sandbox/seccomp.ts"
import { chooseTier } from "../../../extensions/sandbox/tier.ts"

const probe = (found: Partial<SandboxProbe>): SandboxProbe => ({
  checkedAt: "2026-01-01T00:00:00.000Z",
  namespaces: true,
  seccomp: true,
  landlockAbi: 7,
  cgroups: [],
  docker: false,
  novaReason: null,
  ...found
})

describe("the docker tier's command", () => {
  it("runs with no network, a read-only root, the workspace as working folder, and nova's limits", () => {
    const argv = dockerArgv({
      name: "svc-sandbox-1",
      image: "python:3.12-slim",
      workspace: "/data/projects/p1/workspace",
      language: "python",
      code: "print(1)"
    })
    expect(argv).toEqual([
      "docker",
      "run",
      "--rm",
      "--name",
      "svc-sandbox-1",
      "--network",
      "none",
      "--read-only",
      "--cap-drop",
      "ALL",
      "--security-opt",
      "no-new-privileges",
      "--user",
      "65534:65534",
      "--memory",
      "268435456",
      "--memory-swap",
      "268435456",
      "--pids-limit",
      "64",
      "--cpus",
      "1",
      "--ulimit",
      "fsize=67108864",
      "--tmpfs",
      "/tmp:rw,noexec,nosuid,size=16m",
      "--mount",
      "type=bind,source=/data/projects/p1/workspace,target=/workspace",
      "--workdir",
      "/workspace",
      "--env",
      "HOME=/workspace",
      "python:3.12-slim",
      "python3",
      "-I",
      "-c",
      "print(1)"
    ])
    expect(dockerArgv({ name: "n", image: "i", workspace: "/w", language: "sh", code: "echo 1" }).slice(-3)).toEqual([
      "/bin/sh",
      "-c",
      "echo 1"
    ])
  })
})

describe("the tier choice", () => {
  it("auto prefers nova, then docker, else refuses naming both", () => {
    expect(chooseTier("auto", probe({}))).toEqual({ tier: "nova" })
    expect(chooseTier("auto", probe({ novaReason: "bubblewrap is not installed", docker: true }))).toEqual({
      tier: "docker"
    })
    const none = chooseTier("auto", probe({ namespaces: false, novaReason: "bubblewrap is not installed" }))
    expect(none).toMatchObject({ tier: null, refusal: expect.stringContaining("bubblewrap is not installed") })
  })

  it("a tier asked for by name is used only when it isolates here", () => {
    expect(chooseTier("nova", probe({ novaReason: "no user namespaces", docker: true }))).toMatchObject({
      tier: null,
      refusal: expect.stringMatching(/^The nova sandbox is unavailable: no user namespaces\. Install bubblewrap/)
    })
    expect(chooseTier("docker", probe({}))).toMatchObject({
      tier: null,
      refusal: expect.stringContaining("The docker sandbox is unavailable")
    })
    expect(chooseTier("docker", probe({ docker: true }))).toEqual({ tier: "docker" })
  })
})

describe("the seccomp program", () => {
  it("checks the architecture first, refuses each denied call, and allows the rest", () => {
    const program = seccompProgram()
    expect(program.length % 8).toBe(0)
    const at = (index: number) => ({ code: program.readUInt16LE(index * 8), k: program.readUInt32LE(index * 8 + 4) })
    expect(at(0)).toEqual({ code: 0x20, k: 4 })
    expect(at(1)).toEqual({ code: 0x15, k: 0xc000003e })
    const count = program.length / 8
    expect(at(count - 1)).toEqual({ code: 0x06, k: 0x7fff0000 })
    const compared = Array.from({ length: count }, (_, index) => at(index))
      .filter((op) => op.code === 0x15)
      .map((op) => op.k)
    for (const nr of Object.values(deniedSyscalls)) expect(compared).toContain(nr)
  })
})
