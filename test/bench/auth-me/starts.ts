/** Process start to the first 200 on /api/health, node and Fastify anchor, with the CPU used by then. */
import { START_RUNS, fastifyAnchor } from "./settings.ts"
import { stop } from "../spawned-server.ts"
import { firstHealthy, freePort, removeDir, spawnAnchor, spawnNode, tempDir } from "./servers.ts"

export interface StartFigures {
  readonly wallMs: Array<number>
  readonly cpuMs: Array<number>
}

/** Start to first healthy answer, alternating node and anchor so a busy moment hits both. */
export const measureStarts = async (anchorDb: string) => {
  const node: StartFigures = { wallMs: [], cpuMs: [] }
  const fastify: StartFigures = { wallMs: [], cpuMs: [] }
  const record = (into: StartFigures, figures: { wallMs: number; cpuMs: number }) => {
    into.wallMs.push(figures.wallMs)
    into.cpuMs.push(figures.cpuMs)
  }
  for (let i = 0; i < START_RUNS; i++) {
    const dataDir = tempDir("bench-start-")
    let port = await freePort()
    let since = performance.now()
    const started = spawnNode(dataDir, port)
    record(node, await firstHealthy(started, since))
    await stop(started)
    removeDir(dataDir)

    port = await freePort()
    since = performance.now()
    const anchor = spawnAnchor("fastify", fastifyAnchor, anchorDb, port)
    record(fastify, await firstHealthy(anchor, since))
    await stop(anchor)
  }
  return { node, fastify }
}
