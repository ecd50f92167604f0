/**
 * The docker tier: python and sh in a throwaway container when a Docker engine answers. No
 * network, a read-only root, no capabilities, no new privileges, the workspace as its working
 * folder (the only writable place besides a small /tmp), and the same limits as nova. At the
 * deadline the container is killed by name, since killing the CLI alone would leave it running.
 */
import { randomUUID } from "node:crypto"
import { request } from "node:http"
import type { CodeLanguage, CodeReport } from "../../kernel/extensions/process.ts"
import { sandboxLimits } from "./limits.ts"
import type { TierRun } from "./run.ts"
import { cleanEnv, spawnRun } from "./spawn-run.ts"

const containerWorkspace = "/workspace"

/** The exact `docker run` argv for one run. */
export const dockerArgv = (options: {
  readonly name: string
  readonly image: string
  readonly workspace: string
  readonly language: Exclude<CodeLanguage, "javascript">
  readonly code: string
}): ReadonlyArray<string> => [
  "docker",
  "run",
  "--rm",
  "--name",
  options.name,
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
  String(sandboxLimits.memoryBytes),
  "--memory-swap",
  String(sandboxLimits.memoryBytes),
  "--pids-limit",
  String(sandboxLimits.processes),
  "--cpus",
  String(sandboxLimits.cpus),
  "--ulimit",
  `fsize=${sandboxLimits.fileBytes}`,
  "--tmpfs",
  "/tmp:rw,noexec,nosuid,size=16m",
  "--mount",
  `type=bind,source=${options.workspace},target=${containerWorkspace}`,
  "--workdir",
  containerWorkspace,
  "--env",
  `HOME=${containerWorkspace}`,
  options.image,
  ...(options.language === "python" ? ["python3", "-I", "-c", options.code] : ["/bin/sh", "-c", options.code])
]

/** The engine's socket: DOCKER_HOST when it names a unix socket, else the usual place. */
const dockerSocket = () => {
  const host = process.env.DOCKER_HOST
  return host?.startsWith("unix://") ? host.slice("unix://".length) : "/var/run/docker.sock"
}

/** Whether an engine answers its ping within a second; never throws. */
export const dockerAnswers = (): Promise<boolean> =>
  new Promise((resolve) => {
    const ping = request({ socketPath: dockerSocket(), path: "/_ping", timeout: 1_000 }, (response) => {
      response.resume()
      resolve(response.statusCode === 200)
    })
    ping.on("timeout", () => ping.destroy())
    ping.on("error", () => resolve(false))
    ping.end()
  })

export const runDocker = async (options: TierRun & { readonly image: string }): Promise<CodeReport> => {
  const name = `svc-sandbox-${randomUUID()}`
  const result = await spawnRun({
    argv: dockerArgv({ ...options, name }),
    env: {
      ...cleanEnv(options.workspace),
      ...(process.env.DOCKER_HOST === undefined ? {} : { DOCKER_HOST: process.env.DOCKER_HOST })
    },
    timeoutMs: options.timeoutMs,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    kill: () =>
      void spawnRun({ argv: ["docker", "kill", name], env: cleanEnv(options.workspace), timeoutMs: 10_000 }).catch(
        () => {}
      )
  })
  return { ...result, sandboxed: true, unsandboxed: false, runtime: "docker" }
}
