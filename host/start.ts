/**
 * Starts the node: runs its layer until SIGTERM or Ctrl-C. The URL is printed the moment the
 * node listens; the owner code once the services are up, and then the heap the start grew is
 * given back (./settle-heap.ts).
 */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { runNode } from "../kernel/actors/index.ts"
import { BootInfo, bootInfoLayer, listeningLine, ownerCodeLines } from "./boot.ts"
import { nodeLayer } from "./node.ts"
import { settleHeapSoon } from "./settle-heap.ts"

const banner = Layer.effectDiscard(
  Effect.flatMap(BootInfo, (info) => Effect.forEach(ownerCodeLines(info), (line) => Console.log(line))).pipe(
    Effect.zipRight(Effect.sync(() => settleHeapSoon()))
  )
)

export const start = (): void =>
  runNode(
    banner.pipe(
      Layer.provide(bootInfoLayer),
      Layer.provideMerge(nodeLayer({ onListening: (url) => console.log(listeningLine(url)) }))
    )
  )

// Run directly (`node host/start.ts`: the node without the web app's build step, as tests that
// kill and restart it do), it starts at once.
if (import.meta.main) start()
