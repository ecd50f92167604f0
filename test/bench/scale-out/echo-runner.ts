/**
 * A bench-only socket runner (run as its own process by ./cluster-messaging.ts and ./failover.ts):
 * the node's own runner layer (kernel/actors `socketRunnerLayer`: the same sharding values,
 * heartbeat and expiry, msgpack over the runners' sockets, PostgreSQL storage) with one entity
 * kind, `BenchEcho`, whose only Rpc answers the address of the runner it runs on. Nothing else
 * of the node is built, so a message's time is the cluster's alone, not HTTP's or a feature's.
 *
 * Driven over the IPC channel: `{ id, op: "echo", entity }` answers where that entity runs;
 * `{ id, op: "roundTrips", entity, count }` times `count` echoes one after another, from here.
 * Environment: DATABASE_URL, RUNNER_ADDRESS (host:port).
 */
import * as Entity from "@effect/cluster/Entity"
import type * as Sharding from "@effect/cluster/Sharding"
import * as Rpc from "@effect/rpc/Rpc"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { entityLayer, socketRunnerLayer } from "../../../kernel/actors/index.ts"
import { postgresLayer } from "../../../kernel/database.ts"

export const BenchEcho = Entity.make("BenchEcho", [Rpc.make("Echo", { success: Schema.String })])

export type EchoCommand =
  | { readonly id: number; readonly op: "echo"; readonly entity: string; readonly timeoutMs: number }
  | { readonly id: number; readonly op: "roundTrips"; readonly entity: string; readonly count: number }

export type EchoAnswer =
  | { readonly id: number; readonly ok: true; readonly runner: string; readonly timesMs?: ReadonlyArray<number> }
  | { readonly id: number; readonly ok: false; readonly error: string }

const [host, port] = (process.env.RUNNER_ADDRESS ?? "").split(":")
const address = `${host}:${port}`

const EchoLive = entityLayer(BenchEcho, BenchEcho.of({ Echo: () => Effect.succeed(address) }))

const runtime = ManagedRuntime.make(
  EchoLive.pipe(
    Layer.provideMerge(socketRunnerLayer({ host: host!, port: Number(port) })),
    Layer.provide(Layer.orDie(postgresLayer(Redacted.make(process.env.DATABASE_URL ?? ""))))
  )
)

const echoOf = Effect.map(BenchEcho.client, (client) => (entity: string) => client(entity).Echo())

const answer = (command: EchoCommand): Effect.Effect<EchoAnswer, never, Sharding.Sharding> =>
  Effect.gen(function* () {
    const echo = yield* echoOf
    if (command.op === "echo") {
      const runner = yield* echo(command.entity).pipe(Effect.timeout(command.timeoutMs))
      return { id: command.id, ok: true, runner } as const
    }
    const timesMs: Array<number> = []
    let runner = ""
    for (let i = 0; i < command.count; i++) {
      const started = performance.now()
      runner = yield* echo(command.entity)
      timesMs.push(performance.now() - started)
    }
    return { id: command.id, ok: true, runner, timesMs } as const
  }).pipe(
    Effect.catchAllCause((cause) =>
      Effect.succeed({ id: command.id, ok: false, error: String(cause).slice(0, 300) } as const)
    )
  )

await runtime.runPromise(echoOf)
process.on("message", (command: EchoCommand) => {
  void runtime.runPromise(answer(command)).then((reply) => process.send?.(reply))
})
process.send?.({ id: 0, ok: true, runner: address })
