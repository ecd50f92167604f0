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

// Run directly (`node host/start.ts`), the node starts module by module, unbundled and without the web app's build
// check: slower to start, and its stack traces name our files' lines (./bundled-start.ts is how it usually starts).
if (import.meta.main) start()
