/** The time feature's contract tag (contract/twin-time.ts) over its own services: the routes' rules, not copies. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { SignalReads } from "../../actors/being/contract/signal-reads.ts"
import { agenda } from "./agenda.ts"
import { Calendar } from "./calendar.ts"
import { TwinTime } from "./contract/twin-time.ts"
import { ReminderSignalsLive } from "./reminders.ts"
import { Todos } from "./todos.ts"

export const TwinTimeLive = Layer.effect(
  TwinTime,
  Effect.gen(function* () {
    const todos = yield* Todos
    const calendar = yield* Calendar
    const signals = yield* SignalReads
    return {
      listTodos: todos.list,
      createTodo: todos.create,
      completeTodo: todos.complete,
      agenda: (beingId, from, to) => agenda(calendar, signals, beingId, from, to),
      createEvent: calendar.create
    }
  })
).pipe(Layer.provide(Layer.mergeAll(Todos.Default, Calendar.Default.pipe(Layer.provide(ReminderSignalsLive)))))
