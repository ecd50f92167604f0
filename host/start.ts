/**
 * Starts the node: runs its layer until SIGTERM or Ctrl-C. The URL is printed the moment the
 * node listens; the owner code once the services are up, and then the heap the start grew is
 * given back (./settle-heap.ts). The node may be relaunched in place (kernel/relaunch.ts: a
 * restore from the register page): its scope closes, the step runs, and the layer is built again
 * on the port it listened on, in the same process.
 */
import * as Cause from "effect/Cause"
import * as Console from "effect/Console"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import { flushCompileCache } from "node:module"
import { runNode } from "../kernel/actors/index.ts"
import { NodeRelaunch, type StoppedStep } from "../kernel/relaunch.ts"
import { BootInfo, bootInfoLayer, listeningLine, ownerCodeLines } from "./boot.ts"
import { nodeLayer } from "./node.ts"
import { settleHeapSoon } from "./settle-heap.ts"

/**
 * Once started: the owner code printed, V8's code for the start written to the compile cache (Node writes it only at a
 * clean exit otherwise, so a node ended by SIGKILL or a crash started cold every time: slower, and about 12 MB more
 * resident at rest, measured), then the heap settled.
 */
const banner = Layer.effectDiscard(
  Effect.flatMap(BootInfo, (info) => Effect.forEach(ownerCodeLines(info), (line) => Console.log(line))).pipe(
    Effect.zipRight(
      Effect.sync(() => {
        flushCompileCache()
        settleHeapSoon()
      })
    )
  )
)

/**
 * Builds the node, serves until a relaunch is asked for, closes it, runs the step; again, until interrupted. A node
 * that fails to start right after a step is given back what the step undid, and started again.
 */
const relaunching = Effect.gen(function* () {
  let port: number | undefined
  // What the last step can take back, until the node after it has started (set inside a callback, hence an object).
  const last: { undo: Effect.Effect<string, Error> | null } = { undo: null }
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
    const built = Effect.tap(Layer.build(node), () => Effect.sync(() => (last.undo = null)))
    const served = yield* Effect.exit(Effect.scoped(Effect.zipRight(built, Deferred.await(asked))))
    if (Exit.isFailure(served)) {
      // A node that fails to start after a step is started again on what the step undid; any other failure ends.
      const back = last.undo
      if (back === null || Cause.isInterruptedOnly(served.cause)) return yield* served
      last.undo = null
      yield* Console.error(`The node did not start after the relaunch:\n${Cause.pretty(served.cause)}`)
      yield* back.pipe(
        Effect.matchEffect({
          onSuccess: (line) => Console.log(line),
          onFailure: (error) => Console.error(error.message)
        })
      )
      continue
    }
    yield* Console.log("The node stopped to relaunch.")
    yield* served.value.pipe(
      Effect.matchEffect({
        onSuccess: (outcome) => {
          last.undo = outcome.undo
          return Console.log(outcome.line)
        },
        onFailure: (error) => Console.error(error.message)
      })
    )
  }
})

export const start = (): void => runNode(Layer.scopedDiscard(relaunching))

// Run directly (`node host/start.ts`), the node starts module by module, unbundled and without the web app's build
// check: slower to start, and its stack traces name our files' lines (./bundled-start.ts is how it usually starts).
if (import.meta.main) start()
