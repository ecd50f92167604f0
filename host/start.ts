/**
 * Starts the node: runs its layer until SIGTERM or Ctrl-C. The URL is printed the moment the
 * node listens; the owner code once the services are up, and then the heap the start grew is
 * given back (./settle-heap.ts). The node may be relaunched in place (kernel/relaunch.ts: a
 * restore from the register page): its scope closes, the step runs, and the layer is built again
 * on the port it listened on, in the same process.
 */
import * as Console from "effect/Console"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { runNode } from "../kernel/actors/index.ts"
import { NodeRelaunch, type StoppedStep } from "../kernel/relaunch.ts"
import { BootInfo, bootInfoLayer, listeningLine, ownerCodeLines } from "./boot.ts"
import { nodeLayer } from "./node.ts"
import { settleHeapSoon } from "./settle-heap.ts"

const banner = Layer.effectDiscard(
  Effect.flatMap(BootInfo, (info) => Effect.forEach(ownerCodeLines(info), (line) => Console.log(line))).pipe(
    Effect.zipRight(Effect.sync(() => settleHeapSoon()))
  )
)

/** Builds the node, serves until a relaunch is asked for, closes it, runs the step; again, until interrupted. */
const relaunching = Effect.gen(function* () {
  let port: number | undefined
  for (;;) {
    const asked = yield* Deferred.make<StoppedStep>()
    const relaunch = Layer.succeed(NodeRelaunch, { relaunch: (step) => Deferred.succeed(asked, step) })
    const node = banner.pipe(
      Layer.provide(bootInfoLayer),
      Layer.provideMerge(
        nodeLayer({
          // The port the first build listened on (PORT=0 picks one): the web app polling it finds the node again.
          ...(port === undefined ? {} : { settings: { port } }),
          onListening: (url) => {
            port = Number(new URL(url).port)
            console.log(listeningLine(url))
          }
        })
      ),
      Layer.provide(relaunch)
    )
    const step = yield* Effect.scoped(Effect.zipRight(Layer.build(node), Deferred.await(asked)))
    yield* Console.log("The node stopped to relaunch.")
    yield* step.pipe(
      Effect.matchEffect({
        onSuccess: (line) => Console.log(line),
        onFailure: (error) => Console.error(error.message)
      })
    )
  }
})

export const start = (): void => runNode(Layer.scopedDiscard(relaunching))

// Run directly (`node host/start.ts`), the node starts module by module, unbundled and without the web app's build
// check: slower to start, and its stack traces name our files' lines (./bundled-start.ts is how it usually starts).
if (import.meta.main) start()
