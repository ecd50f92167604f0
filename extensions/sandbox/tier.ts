/**
 * Which tier runs python and sh, from SVC_SANDBOX_RUNTIME and what the probe found, and what
 * each tier applies here. Failing closed starts here: a tier that cannot isolate is never chosen,
 * and the refusal names the tier and how to enable it.
 */
import type { SandboxProbe } from "./probe.ts"
import type { SandboxSettingsShape } from "./settings.ts"

export type Tier = "nova" | "docker"
export type TierChoice = { readonly tier: Tier } | { readonly tier: null; readonly refusal: string }

const unsandboxedHint = "SVC_SANDBOX_ALLOW_LOCAL=1 would run code unsandboxed instead."

const novaRefusal = (probe: SandboxProbe) =>
  `The nova sandbox is unavailable: ${probe.novaReason ?? "the probe did not finish"}. ` +
  `Install bubblewrap (apt-get install bubblewrap) where user namespaces are allowed, or set SVC_SANDBOX_RUNTIME=docker with a Docker engine running. ${unsandboxedHint}`

const dockerRefusal =
  "The docker sandbox is unavailable: no Docker engine answers (DOCKER_HOST, or /var/run/docker.sock). " +
  `Start a Docker engine with the docker CLI installed, or set SVC_SANDBOX_RUNTIME=nova with bubblewrap installed. ${unsandboxedHint}`

export const chooseTier = (setting: SandboxSettingsShape["sandboxRuntime"], probe: SandboxProbe): TierChoice => {
  const nova = probe.novaReason === null && probe.namespaces
  if (setting === "nova") return nova ? { tier: "nova" } : { tier: null, refusal: novaRefusal(probe) }
  if (setting === "docker") return probe.docker ? { tier: "docker" } : { tier: null, refusal: dockerRefusal }
  if (nova) return { tier: "nova" }
  if (probe.docker) return { tier: "docker" }
  return {
    tier: null,
    refusal:
      `No sandbox is available (SVC_SANDBOX_RUNTIME=auto): nova is not (${probe.novaReason ?? "unknown"}) and no Docker engine answers. ` +
      `Install bubblewrap (apt-get install bubblewrap) or start a Docker engine. ${unsandboxedHint}`
  }
}

/** What a tier applies on this machine, as the health report lists it. */
export const protectionsOf = (tier: Tier | null, probe: SandboxProbe): ReadonlyArray<string> => {
  if (tier === "docker")
    return ["container", "no network", "read-only root", "no capabilities", "memory, process and CPU limits"]
  if (tier === null) return []
  return [
    "user, pid, mount, ipc, uts, cgroup and network namespaces",
    "read-only root, the workspace the only writable folder",
    "no capabilities, no nested user namespaces",
    ...(probe.seccomp ? ["seccomp filter"] : []),
    ...(probe.landlockAbi > 0 ? [`landlock ABI ${probe.landlockAbi}`] : []),
    ...probe.cgroups.map((controller) => `cgroup ${controller}`),
    "rlimits on memory, CPU time, file size and processes"
  ]
}
