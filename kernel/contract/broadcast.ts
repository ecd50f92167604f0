/**
 * What processes sharing one database tell each other over the broadcast channel (its tag in
 * kernel/broadcast.ts, its implementation the host's, over PostgreSQL LISTEN/NOTIFY). A message is
 * `{ kind, ...fields }`. The kernel names only the channel's own two; each feature that sends one
 * adds it here by declaration merging, as events do (kernel/contract/events.ts):
 *
 *     declare module "../../../kernel/contract/broadcast.ts" {
 *       interface BroadcastMessages { "sessions.ended": SessionsEnded }
 *     }
 *
 * host/broadcast/messages.ts composes the schema the channel decodes with and checks it against
 * this registry.
 */

export interface BroadcastMessages {
  /** A process's own probe at start, to know its LISTEN is in place. */
  hello: { readonly kind: "hello" }
  /**
   * Never sent: told by a process to its own subscribers when its listen connection is back after
   * a drop. What others sent meanwhile is lost, so every copy of their writes is dropped.
   */
  "listen.resumed": { readonly kind: "listen.resumed" }
}

/** Any message a process may send or hear. */
export type BroadcastMessage = BroadcastMessages[keyof BroadcastMessages]
